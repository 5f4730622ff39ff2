package io.herald.query.stats;

import static io.herald.query.jdbc.JdbcColumns.instant;
import static io.herald.query.jdbc.JdbcColumns.timestamp;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/** The overview's hour buckets ({@code publication_hour_stats}, {@code answer_time_buckets}). */
@Repository
public class PublicationStatsRepository {

    record HourKey(String workspaceId, Instant hour, String kind) {
        /** The table's key order: rows are upserted in it. */
        static final Comparator<HourKey> ORDER = Comparator.comparing(HourKey::workspaceId)
                .thenComparing(HourKey::hour).thenComparing(HourKey::kind);
    }

    record AnswerKey(String workspaceId, String channelId, Instant hour, int bucket) {
        /** The table's key order: rows are upserted in it. */
        static final Comparator<AnswerKey> ORDER = Comparator.comparing(AnswerKey::workspaceId)
                .thenComparing(AnswerKey::hour).thenComparing(AnswerKey::channelId).thenComparingInt(AnswerKey::bucket);
    }

    /** What the overview reads for one window: the hour rows, the cases open before it, the answer times. */
    record Window(Map<Instant, Map<String, Long>> hours, long openBefore, Map<String, AnswerTimeHistogram> answers) {
    }

    private final NamedParameterJdbcTemplate jdbc;

    public PublicationStatsRepository(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Adds the counts to their rows, one batch per table, each in the table's key order: two batches
     * that add to the same rows at once (the view's segments commit side by side) lock them in the same
     * order, so one waits for the other instead of both for each other (a deadlock aborts a batch).
     */
    void add(Map<HourKey, Long> outcomes, Map<AnswerKey, Long> answers) {
        if (!outcomes.isEmpty()) {
            jdbc.batchUpdate("""
                    INSERT INTO publication_hour_stats (workspace_id, hour, kind, publications)
                    VALUES (:workspace, :hour, :kind, :n)
                    ON CONFLICT (workspace_id, hour, kind)
                    DO UPDATE SET publications = publication_hour_stats.publications + EXCLUDED.publications""",
                    outcomes.entrySet().stream().sorted(Map.Entry.comparingByKey(HourKey.ORDER))
                            .map(e -> new MapSqlParameterSource("workspace", e.getKey().workspaceId())
                            .addValue("hour", timestamp(e.getKey().hour())).addValue("kind", e.getKey().kind())
                            .addValue("n", e.getValue())).toArray(MapSqlParameterSource[]::new));
        }
        if (!answers.isEmpty()) {
            jdbc.batchUpdate("""
                    INSERT INTO answer_time_buckets (workspace_id, channel_id, hour, bucket, answers)
                    VALUES (:workspace, :channel, :hour, :bucket, :n)
                    ON CONFLICT (workspace_id, hour, channel_id, bucket)
                    DO UPDATE SET answers = answer_time_buckets.answers + EXCLUDED.answers""",
                    answers.entrySet().stream().sorted(Map.Entry.comparingByKey(AnswerKey.ORDER))
                            .map(e -> new MapSqlParameterSource("workspace", e.getKey().workspaceId())
                            .addValue("channel", e.getKey().channelId()).addValue("hour", timestamp(e.getKey().hour()))
                            .addValue("bucket", e.getKey().bucket()).addValue("n", e.getValue()))
                            .toArray(MapSqlParameterSource[]::new));
        }
    }

    void deleteAll() {
        jdbc.getJdbcTemplate().update("DELETE FROM publication_hour_stats");
        jdbc.getJdbcTemplate().update("DELETE FROM answer_time_buckets");
    }

    /** Two statements whatever the number of publications: one for the hour rows, one for the answer times. */
    Window read(String workspace, Instant from) {
        MapSqlParameterSource p = new MapSqlParameterSource("workspace", workspace).addValue("from", timestamp(from));
        Map<Instant, Map<String, Long>> hours = new HashMap<>();
        long[] openBefore = {0};
        // the cases still open when the window starts are the opened minus the closed before it
        jdbc.query("""
                SELECT hour, kind, publications FROM publication_hour_stats
                WHERE workspace_id = :workspace AND hour >= :from
                UNION ALL
                SELECT NULL, 'OPEN_BEFORE', COALESCE(SUM(CASE kind WHEN 'CASE_OPENED' THEN publications
                                                                   ELSE -publications END), 0)
                FROM publication_hour_stats
                WHERE workspace_id = :workspace AND hour < :from AND kind IN ('CASE_OPENED', 'CASE_CLOSED')""",
                p, (RowCallbackHandler) rs -> {
                    Instant hour = instant(rs, "hour");
                    if (hour == null) {
                        openBefore[0] = rs.getLong("publications");
                    } else {
                        hours.computeIfAbsent(hour, h -> new HashMap<>()).put(rs.getString("kind"), rs.getLong("publications"));
                    }
                });
        Map<String, AnswerTimeHistogram> answers = new HashMap<>();
        jdbc.query("""
                SELECT channel_id, bucket, SUM(answers) AS answers FROM answer_time_buckets
                WHERE workspace_id = :workspace AND hour >= :from GROUP BY channel_id, bucket""",
                p, (RowCallbackHandler) rs -> answers.computeIfAbsent(rs.getString("channel_id"), c -> new AnswerTimeHistogram())
                        .add(rs.getInt("bucket"), rs.getLong("answers")));
        return new Window(hours, openBefore[0], answers);
    }
}
