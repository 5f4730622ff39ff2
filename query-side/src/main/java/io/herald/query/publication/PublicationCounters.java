package io.herald.query.publication;

import io.herald.contracts.publication.PublicationView;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The {@code publication_counts} rows: per workspace, channel and status, how many publications the
 * view holds and how many of them need a decision, so that counting never reads the publications.
 *
 * <p>The view's repository changes them in the transaction that writes the view rows, from each
 * row's state just before the write and after it. The state before is read under a row lock
 * ({@link #lock}), so no other transaction changes the row between the reading and the writing,
 * and a write that the row's sequence guard turns into nothing counts as nothing. The changes of a
 * write are added in one statement, in key order, to the writing thread's slot: two batches that
 * commit at once seldom touch the same counter row, and when they do they lock in the same order.
 */
final class PublicationCounters {

    /** The slots a key's count is spread over; a reader sums them. */
    static final int SLOTS = 16;

    private static final Comparator<Key> ORDER = Comparator.comparing(Key::workspaceId)
            .thenComparing(Key::channelId).thenComparing(Key::status);

    private final NamedParameterJdbcTemplate jdbc;

    PublicationCounters(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** What a stored view row counts as, and the sequence number its guard compares with. */
    record Counted(Key key, boolean needsDecision, long lastSequence) {
    }

    record Key(String workspaceId, String channelId, String status) {
        static Key of(PublicationView view) {
            return new Key(view.workspaceId().value(), view.channelId().value(), view.status().name());
        }
    }

    /** The stored rows of those publications, locked until the transaction ends; absent ones are not in the map. */
    Map<String, Counted> lock(Collection<String> publicationIds) {
        Map<String, Counted> found = new HashMap<>();
        if (publicationIds.isEmpty()) {
            return found;
        }
        jdbc.query("""
                SELECT publication_id, workspace_id, channel_id, status, needs_decision, last_sequence
                FROM publication_view WHERE publication_id = ANY(:ids) ORDER BY publication_id FOR UPDATE""",
                new MapSqlParameterSource("ids", publicationIds.toArray(String[]::new)),
                (RowCallbackHandler) rs -> found.put(rs.getString("publication_id"), new Counted(
                        new Key(rs.getString("workspace_id"), rs.getString("channel_id"), rs.getString("status")),
                        rs.getBoolean("needs_decision"), rs.getLong("last_sequence"))));
        return found;
    }

    /** Changes being gathered for one statement. */
    static final class Changes {
        private final Map<Key, long[]> byKey = new TreeMap<>(ORDER);

        /**
         * A row written at {@code sequence} over what was stored ({@code before}, null: no row). A
         * stored row at or past that sequence is not overwritten, so nothing changes.
         */
        void written(Counted before, PublicationView after, long sequence) {
            if (before != null && before.lastSequence() >= sequence) {
                return;
            }
            if (before != null) {
                add(before.key(), -1, before.needsDecision() ? -1 : 0);
            }
            add(Key.of(after), 1, after.needsDecision() ? 1 : 0);
        }

        /** A new row inserted. */
        void inserted(PublicationView view) {
            add(Key.of(view), 1, view.needsDecision() ? 1 : 0);
        }

        private void add(Key key, long publications, long waiting) {
            long[] sums = byKey.computeIfAbsent(key, k -> new long[2]);
            sums[0] += publications;
            sums[1] += waiting;
        }
    }

    /** Adds the changes to the writing thread's slot, in one statement, in key order. */
    void add(Changes changes) {
        MapSqlParameterSource params = new MapSqlParameterSource();
        String statement = addition(changes, params);
        if (statement != null) {
            jdbc.update(statement, params);
        }
    }

    /**
     * The statement that adds the changes to the writing thread's slot, in key order, its values
     * put in {@code params} (names starting with {@code counted}); null when nothing changes. A
     * caller may run it as the last part of a statement of its own.
     */
    String addition(Changes changes, MapSqlParameterSource params) {
        List<Key> keys = new ArrayList<>();
        List<long[]> sums = new ArrayList<>();
        changes.byKey.forEach((key, sum) -> {
            if (sum[0] != 0 || sum[1] != 0) {
                keys.add(key);
                sums.add(sum);
            }
        });
        if (keys.isEmpty()) {
            return null;
        }
        params.addValue("countedSlot", Math.floorMod(Long.hashCode(Thread.currentThread().getId()), SLOTS))
                .addValue("countedWorkspaces", keys.stream().map(Key::workspaceId).toArray(String[]::new))
                .addValue("countedChannels", keys.stream().map(Key::channelId).toArray(String[]::new))
                .addValue("countedStatuses", keys.stream().map(Key::status).toArray(String[]::new))
                .addValue("countedPublications", sums.stream().map(s -> s[0]).toArray(Long[]::new))
                .addValue("countedWaiting", sums.stream().map(s -> s[1]).toArray(Long[]::new));
        return """
                INSERT INTO publication_counts (workspace_id, channel_id, status, slot, publications, waiting)
                SELECT w, c, s, :countedSlot, p, d
                FROM unnest(CAST(:countedWorkspaces AS text[]), CAST(:countedChannels AS text[]),
                            CAST(:countedStatuses AS text[]), CAST(:countedPublications AS bigint[]),
                            CAST(:countedWaiting AS bigint[])) AS t(w, c, s, p, d)
                ORDER BY w, c, s
                ON CONFLICT (workspace_id, channel_id, status, slot) DO UPDATE SET
                    publications = publication_counts.publications + EXCLUDED.publications,
                    waiting = publication_counts.waiting + EXCLUDED.waiting""";
    }

    void deleteAll() {
        jdbc.getJdbcTemplate().update("DELETE FROM publication_counts");
    }
}
