package io.herald.query.audit;

import static io.herald.query.jdbc.JdbcColumns.instant;
import static io.herald.query.jdbc.JdbcColumns.timestamp;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The verifier's tables: {@code audit_stream} (one row per publication), {@code audit_breach} and
 * {@code audit_verification_job}. Both writers (the live processor and the full re-verification)
 * go through {@link #saveStreams}, whose guard lets a verdict on more of a stream replace one on
 * less, never the reverse, so their order does not matter.
 */
@Repository
class BreachRepository {

    /** Rules checked within one stream are below this number; the entry line's rules are at or above it. */
    static final int FIRST_LINE_RULE = EntryLineCheck.UPDATE_ORDER;

    private static final String INSERT_BREACH = """
            INSERT INTO audit_breach (workspace_id, publication_id, rule, event_sequence, detail)
            VALUES (:workspace, :publication, :rule, :sequence, :detail)
            ON CONFLICT (publication_id, rule, event_sequence, md5(detail)) DO NOTHING""";

    private final NamedParameterJdbcTemplate jdbc;

    BreachRepository(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Stores the verdicts on these streams, each unless a verdict on more of its stream is stored
     * already; for the streams it stores, their rule 1–5 breaches replace those stored. One
     * statement for a batch of clean streams that were clean before (the usual case: a delete only
     * where breaches were stored, an insert only where there are some). Run in a transaction.
     */
    void saveStreams(List<StreamVerdict> verdicts) {
        if (verdicts.isEmpty()) {
            return;
        }
        int n = verdicts.size();
        String[] ids = new String[n];
        String[] workspaces = new String[n];
        String[] sequences = new String[n];
        String[] openSequences = new String[n];
        String[] overdueAt = new String[n];
        String[] openDetails = new String[n];
        String[] lines = new String[n];
        String[] counts = new String[n];
        for (int i = 0; i < n; i++) {
            StreamVerdict v = verdicts.get(i);
            ids[i] = v.publicationId();
            workspaces[i] = v.workspaceId();
            sequences[i] = Long.toString(v.lastSequence());
            if (v.open() != null) {
                openSequences[i] = Long.toString(v.open().breach().sequence());
                overdueAt[i] = v.open().overdueAt().toString();
                openDetails[i] = v.open().breach().detail();
            }
            lines[i] = v.entryLine();
            counts[i] = Integer.toString(v.breaches().size());
        }
        // the row lock taken here holds off the other writer until this transaction ends; the rows
        // that had breaches are found by one hashed look-up of what was stored before, not by a
        // subquery per row written (which read the table once per row: 2.6 s for 5,000 streams)
        Set<String> stored = new HashSet<>();
        List<String> hadBreaches = new ArrayList<>();
        jdbc.query("""
                WITH before AS (SELECT publication_id, stream_breaches FROM audit_stream
                                WHERE publication_id = ANY(CAST(:ids AS varchar[])))
                INSERT INTO audit_stream (publication_id, workspace_id, last_sequence, open_sequence, open_overdue_at,
                                          open_detail, entry_line, stream_breaches)
                SELECT * FROM unnest(CAST(:ids AS varchar[]), CAST(:workspaces AS varchar[]),
                                     CAST(:sequences AS bigint[]), CAST(:openSequences AS bigint[]),
                                     CAST(:overdueAt AS timestamptz[]), CAST(:openDetails AS text[]),
                                     CAST(:lines AS text[]), CAST(:counts AS integer[]))
                ON CONFLICT (publication_id) DO UPDATE SET workspace_id = EXCLUDED.workspace_id,
                    last_sequence = EXCLUDED.last_sequence, open_sequence = EXCLUDED.open_sequence,
                    open_overdue_at = EXCLUDED.open_overdue_at, open_detail = EXCLUDED.open_detail,
                    entry_line = EXCLUDED.entry_line, stream_breaches = EXCLUDED.stream_breaches
                WHERE audit_stream.last_sequence <= EXCLUDED.last_sequence
                RETURNING publication_id, audit_stream.publication_id IN (SELECT b.publication_id FROM before b
                                                                          WHERE b.stream_breaches > 0)
                          AS had_breaches""",
                new MapSqlParameterSource("ids", ids).addValue("workspaces", workspaces)
                        .addValue("sequences", sequences).addValue("openSequences", openSequences)
                        .addValue("overdueAt", overdueAt).addValue("openDetails", openDetails)
                        .addValue("lines", lines).addValue("counts", counts),
                (RowCallbackHandler) rs -> {
                    stored.add(rs.getString("publication_id"));
                    if (rs.getBoolean("had_breaches")) {
                        hadBreaches.add(rs.getString("publication_id"));
                    }
                });
        if (!hadBreaches.isEmpty()) {
            jdbc.update("DELETE FROM audit_breach WHERE publication_id = ANY(:ids) AND rule < " + FIRST_LINE_RULE,
                    new MapSqlParameterSource("ids", hadBreaches.toArray(String[]::new)));
        }
        List<LocatedBreach> breaches = new ArrayList<>();
        for (StreamVerdict v : verdicts) {
            if (stored.contains(v.publicationId())) {
                v.breaches().forEach(b -> breaches.add(new LocatedBreach(v.workspaceId(), b)));
            }
        }
        insert(breaches);
    }

    /**
     * The publications of these entry lines (updates and deletes only), once this transaction holds
     * the lines' locks. Two segments may verify two publications of one line at once; without the
     * lock each could read the line before the other's row is committed and both miss a breach
     * that needs the two. With it the second reads after the first commits, and sees its row. The
     * locks are taken in one order, so two batches never wait for each other in a circle.
     */
    List<String> lineMembers(Collection<String> lines) {
        // unnest keeps the array's order: the sorted one
        jdbc.queryForList("SELECT pg_advisory_xact_lock(hashtext(line)) FROM unnest(CAST(:lines AS text[])) AS l(line)",
                new MapSqlParameterSource("lines", lines.stream().sorted().toArray(String[]::new)), Object.class);
        return jdbc.queryForList("SELECT publication_id FROM audit_stream WHERE entry_line = ANY(:lines)",
                new MapSqlParameterSource("lines", lines.toArray(String[]::new)), String.class);
    }

    /** The entry line breaches of these publications become {@code found}. */
    void replaceLineBreaches(Collection<String> publications, List<LocatedBreach> found) {
        if (!publications.isEmpty()) {
            jdbc.update("DELETE FROM audit_breach WHERE publication_id = ANY(:ids) AND rule >= " + FIRST_LINE_RULE
                            + " AND rule < " + Breach.CHAIN_BREAK,
                    new MapSqlParameterSource("ids", publications.toArray(String[]::new)));
        }
        insert(found);
    }

    /** Adds breaches; one stored already is kept once. */
    void insert(List<LocatedBreach> breaches) {
        if (breaches.isEmpty()) {
            return;
        }
        jdbc.batchUpdate(INSERT_BREACH, breaches.stream().map(b -> new MapSqlParameterSource()
                .addValue("workspace", b.workspaceId())
                .addValue("publication", b.breach().publicationId())
                .addValue("rule", b.breach().rule())
                .addValue("sequence", b.breach().sequence())
                .addValue("detail", b.breach().detail())).toArray(MapSqlParameterSource[]::new));
    }

    /**
     * The breaches known of one workspace (null: of the whole store) as of {@code now}: those stored,
     * and the open attempts whose deadline and grace have passed by then (rule 2). Ordered by
     * publication, then by the event that breaks the rule.
     */
    List<Breach> find(String workspace, Instant now) {
        MapSqlParameterSource p = new MapSqlParameterSource("now", timestamp(now));
        String ofWorkspace = "";
        if (workspace != null) {
            ofWorkspace = " AND workspace_id = :workspace";
            p.addValue("workspace", workspace);
        }
        List<Breach> found = new ArrayList<>(jdbc.query(
                "SELECT publication_id, rule, event_sequence, detail FROM audit_breach WHERE TRUE" + ofWorkspace,
                p, (rs, i) -> new Breach(rs.getString("publication_id"), rs.getInt("rule"),
                        rs.getLong("event_sequence"), rs.getString("detail"))));
        found.addAll(jdbc.query("SELECT publication_id, open_sequence, open_detail FROM audit_stream"
                        + " WHERE open_overdue_at IS NOT NULL AND open_overdue_at < :now" + ofWorkspace,
                p, (rs, i) -> new Breach(rs.getString("publication_id"), 2, rs.getLong("open_sequence"),
                        rs.getString("open_detail"))));
        found.sort(Comparator.comparing(Breach::publicationId).thenComparingLong(Breach::sequence)
                .thenComparingInt(Breach::rule).thenComparing(Breach::detail));
        return found;
    }

    void deleteAll() {
        jdbc.getJdbcTemplate().update("DELETE FROM audit_breach");
        jdbc.getJdbcTemplate().update("DELETE FROM audit_stream");
    }

    // the re-verification jobs

    void createJob(String jobId, Instant startedAt) {
        jdbc.update("INSERT INTO audit_verification_job (job_id, status, started_at, updated_at)"
                        + " VALUES (:id, :status, :at, :at)",
                new MapSqlParameterSource("id", jobId).addValue("status", VerificationJob.Status.RUNNING.name())
                        .addValue("at", timestamp(startedAt)));
    }

    void progress(String jobId, long eventsDone, long eventsTotal, Instant at) {
        jdbc.update("""
                UPDATE audit_verification_job SET events_done = :done, events_total = :total, updated_at = :at
                WHERE job_id = :id""",
                new MapSqlParameterSource("id", jobId).addValue("done", eventsDone).addValue("total", eventsTotal)
                        .addValue("at", timestamp(at)));
    }

    void finishJob(String jobId, VerificationJob.Status status, Instant at, String failure) {
        jdbc.update("""
                UPDATE audit_verification_job SET status = :status, finished_at = :at, failure = :failure
                WHERE job_id = :id""",
                new MapSqlParameterSource("id", jobId).addValue("status", status.name())
                        .addValue("at", timestamp(at)).addValue("failure", failure));
    }

    Optional<VerificationJob> findJob(String jobId) {
        return jdbc.query("SELECT * FROM audit_verification_job WHERE job_id = :id",
                new MapSqlParameterSource("id", jobId), (rs, i) -> new VerificationJob(rs.getString("job_id"),
                        VerificationJob.Status.valueOf(rs.getString("status")), rs.getLong("events_done"),
                        rs.getLong("events_total"), instant(rs, "started_at"), instant(rs, "finished_at")))
                .stream().findFirst();
    }

    /**
     * The job still running, if one is (started on any node). A RUNNING job that has shown no
     * progress since {@code silentSince} ran on a node that stopped: it is marked FAILED first.
     */
    Optional<VerificationJob> runningJob(Instant silentSince, Instant now) {
        jdbc.update("""
                UPDATE audit_verification_job SET status = :failed, finished_at = :now,
                    failure = 'abandoned: no progress since ' || updated_at
                WHERE status = :running AND updated_at < :silentSince""",
                new MapSqlParameterSource("failed", VerificationJob.Status.FAILED.name())
                        .addValue("running", VerificationJob.Status.RUNNING.name())
                        .addValue("now", timestamp(now)).addValue("silentSince", timestamp(silentSince)));
        return jdbc.queryForList("SELECT job_id FROM audit_verification_job WHERE status = :status"
                        + " ORDER BY started_at DESC LIMIT 1",
                new MapSqlParameterSource("status", VerificationJob.Status.RUNNING.name()), String.class)
                .stream().findFirst().flatMap(this::findJob);
    }
}
