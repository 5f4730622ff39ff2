package io.herald.command.entry;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationRequestedEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The two writes to the entries' lines that every publication makes, gathered per batch of events:
 * new operations joining their lines, and operations settled by their post's success. A run of
 * either kind is one statement, written when the batch's unit of work prepares its commit, when
 * the other kind follows, or before anything else reads or changes the lines ({@link #flush}); so
 * the lines see the batch's events in their order, and still commit or roll back with them.
 */
final class EntryLineBatch {

    /**
     * New operations in event order ({@code n}). A line takes as many numbers as it has new
     * operations, after its {@code next_seq} before the batch, and hands them out in that order.
     * Its row is locked until commit (in key order, so two nodes' batches cannot deadlock): the
     * order of {@code seq} is the order of commits.
     */
    private static final String JOIN = """
            WITH joining AS (
                SELECT * FROM unnest(CAST(? AS varchar[]), CAST(? AS varchar[]), CAST(? AS varchar[]),
                                     CAST(? AS varchar[]), CAST(? AS varchar[]), CAST(? AS bigint[]))
                       WITH ORDINALITY AS j(publication_id, workspace_id, calendar_entry_id, channel_id, action,
                                            content_version, n)),
            line AS (
                INSERT INTO entry_line (workspace_id, calendar_entry_id, channel_id, next_seq)
                SELECT workspace_id, calendar_entry_id, channel_id, count(*) FROM joining
                 GROUP BY workspace_id, calendar_entry_id, channel_id
                 ORDER BY workspace_id, calendar_entry_id, channel_id
                ON CONFLICT (workspace_id, calendar_entry_id, channel_id)
                DO UPDATE SET next_seq = entry_line.next_seq + EXCLUDED.next_seq
                RETURNING workspace_id, calendar_entry_id, channel_id, next_seq)
            INSERT INTO entry_operation (publication_id, workspace_id, calendar_entry_id, channel_id, seq, action,
                                         content_version, state)
            SELECT j.publication_id, j.workspace_id, j.calendar_entry_id, j.channel_id,
                   l.next_seq - count(*) OVER same_line
                       + row_number() OVER (PARTITION BY j.workspace_id, j.calendar_entry_id, j.channel_id
                                            ORDER BY j.n),
                   j.action, j.content_version, 'OPEN'
              FROM joining j JOIN line l ON l.workspace_id = j.workspace_id
               AND l.calendar_entry_id = j.calendar_entry_id AND l.channel_id = j.channel_id
            WINDOW same_line AS (PARTITION BY j.workspace_id, j.calendar_entry_id, j.channel_id)
            ON CONFLICT (publication_id) DO NOTHING""";

    /**
     * Operations done by their post's attempt (not an upload's, not a first comment's), each at most
     * once a statement, and the wake-up of each line's next open update or delete: as
     * {@link EntryLines}'s one-row settling does, with every operation the statement settles counted
     * as settled (the CTE's reads see the rows as they were before its update). A created post's
     * ref is kept for a publish or draft only.
     */
    private static final String SETTLE_DONE = """
            WITH settling AS (
                SELECT * FROM unnest(CAST(? AS varchar[]), CAST(? AS boolean[]), CAST(? AS varchar[]),
                                     CAST(? AS varchar[]), CAST(? AS int[]))
                       AS i(publication_id, has_ref, ref_id, ref_url, attempt_no)),
            settled AS (
                UPDATE entry_operation o SET state = 'DONE',
                       ref_id = CASE WHEN i.has_ref AND o.action IN ('publish', 'draft')
                                     THEN i.ref_id ELSE o.ref_id END,
                       ref_url = CASE WHEN i.has_ref AND o.action IN ('publish', 'draft')
                                      THEN i.ref_url ELSE o.ref_url END
                  FROM settling i
                 WHERE o.publication_id = i.publication_id
                   AND NOT (i.attempt_no = ANY(o.upload_attempts)) AND NOT (i.attempt_no = ANY(o.comment_attempts))
             RETURNING o.publication_id, o.workspace_id, o.calendar_entry_id, o.channel_id, o.seq),
            next AS (
                SELECT DISTINCT ON (o.workspace_id, o.calendar_entry_id, o.channel_id) o.publication_id
                  FROM entry_operation o JOIN settled s
                    ON o.workspace_id = s.workspace_id AND o.calendar_entry_id = s.calendar_entry_id
                   AND o.channel_id = s.channel_id AND o.seq > s.seq
                 WHERE o.state = 'OPEN' AND o.action IN ('update', 'delete')
                   AND o.publication_id NOT IN (SELECT publication_id FROM settled)
                   AND NOT EXISTS (SELECT 1 FROM entry_operation b WHERE b.workspace_id = s.workspace_id
                       AND b.calendar_entry_id = s.calendar_entry_id AND b.channel_id = s.channel_id
                       AND b.seq < o.seq AND b.state = 'OPEN'
                       AND b.publication_id NOT IN (SELECT publication_id FROM settled))
                 ORDER BY o.workspace_id, o.calendar_entry_id, o.channel_id, o.seq)
            INSERT INTO publication_timer (publication_id, kind, attempt_no, trigger, read_no, due_at)
            SELECT publication_id, 'ATTEMPT_DUE', 1, 'INITIAL', 0, now() FROM next
            ON CONFLICT (publication_id) DO UPDATE SET due_at = now(), fires = 0
             WHERE publication_timer.kind = 'ATTEMPT_DUE' AND publication_timer.fires > 0""";

    private static final String RESOURCE = EntryLineBatch.class.getName();

    /** An operation its post's attempt settled, with the post it created, if any. */
    private record Done(PublicationId publicationId, ProviderRef createdPost, int attemptNo) {
    }

    /** What the batch holds: at most one of the two is not empty. */
    private static final class Pending {
        final List<PublicationRequestedEvent> joining = new ArrayList<>();
        final Map<PublicationId, Done> done = new LinkedHashMap<>();
    }

    private final JdbcTemplate jdbc;

    EntryLineBatch(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void join(PublicationRequestedEvent event) {
        Pending pending = pending();
        if (pending == null) {
            join(List.of(event));
            return;
        }
        writeDone(pending);
        pending.joining.add(event);
    }

    void settleDone(PublicationId id, ProviderRef createdPost, int attemptNo) {
        Done done = new Done(id, createdPost, attemptNo);
        Pending pending = pending();
        if (pending == null) {
            settle(List.of(done));
            return;
        }
        writeJoining(pending);
        if (pending.done.containsKey(id)) {
            writeDone(pending);
        }
        pending.done.put(id, done);
    }

    /** Writes what the batch holds so far: before a write or read of the lines that must come after it. */
    void flush() {
        if (CurrentUnitOfWork.isStarted()) {
            Pending pending = CurrentUnitOfWork.get().getResource(RESOURCE);
            if (pending != null) {
                write(pending);
            }
        }
    }

    private Pending pending() {
        if (!CurrentUnitOfWork.isStarted()) {
            return null;
        }
        UnitOfWork<?> unitOfWork = CurrentUnitOfWork.get();
        return unitOfWork.getOrComputeResource(RESOURCE, key -> {
            Pending pending = new Pending();
            unitOfWork.onPrepareCommit(u -> write(pending));
            return pending;
        });
    }

    private void write(Pending pending) {
        writeJoining(pending);
        writeDone(pending);
    }

    private void writeJoining(Pending pending) {
        if (!pending.joining.isEmpty()) {
            join(pending.joining);
            pending.joining.clear();
        }
    }

    private void writeDone(Pending pending) {
        if (!pending.done.isEmpty()) {
            settle(List.copyOf(pending.done.values()));
            pending.done.clear();
        }
    }

    private void join(List<PublicationRequestedEvent> events) {
        jdbc.update(JOIN, column(events, e -> e.publicationId().value(), String[]::new),
                column(events, e -> e.workspaceId().value(), String[]::new),
                column(events, PublicationRequestedEvent::calendarEntryId, String[]::new),
                column(events, e -> e.channelId().value(), String[]::new),
                column(events, e -> e.action().wireName(), String[]::new),
                column(events, PublicationRequestedEvent::contentVersion, Long[]::new));
    }

    private void settle(List<Done> done) {
        jdbc.update(SETTLE_DONE, column(done, d -> d.publicationId().value(), String[]::new),
                column(done, d -> d.createdPost() != null, Boolean[]::new),
                column(done, d -> d.createdPost() == null ? null : d.createdPost().id(), String[]::new),
                column(done, d -> d.createdPost() == null ? null : d.createdPost().url(), String[]::new),
                column(done, Done::attemptNo, Integer[]::new));
    }

    /** One statement parameter: a column's values, one per row, in the rows' order. */
    private static <R, T> T[] column(List<R> rows, Function<R, T> value, IntFunction<T[]> array) {
        return rows.stream().map(value).toArray(array);
    }
}
