package io.herald.command.entry;

import io.herald.command.entry.EntryOperation.State;
import io.herald.command.publication.EntryOrder;
import io.herald.command.publishing.TimerRows;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationNothingToChangeEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.PublicationSupersededEvent;
import io.herald.contracts.publication.PublicationTargetedEvent;
import io.herald.contracts.publication.ReconciliationResult;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Keeps each entry's line of operations ({@code entry_operation}) in step with the publications'
 * events. It belongs to the subscribing processor of the timer rows, so every row commits or rolls
 * back with the event that causes it, on whichever node appends it, and a crash loses nothing. A
 * batch's new operations, and its operations done, are written together ({@link EntryLineBatch}).
 * When an operation settles, the same statement gives the next open one in the line a due-now
 * timer row: an update or delete that waited for it then asks for its turn again.
 */
@Component
@ProcessingGroup(TimerRows.PROCESSING_GROUP)
public class EntryLines implements EntryOrder {

    private static final String COLUMNS = "o.seq, o.publication_id, o.action, o.content_version, o.state, o.ref_id,"
            + " o.ref_url, o.ref_verified";
    /**
     * Settles (or re-opens) one operation and wakes the next open update or delete, if nothing else
     * before it is open; one statement on the hot path. The first {@code %s} is the new state, the
     * second a further condition on the row settled (which attempts do not settle it). A created
     * post's ref is kept for a publish or draft only: an update or delete keeps its target. The
     * CTE's reads see the rows as they were before its update, hence {@code b.seq <> s.seq}. A row
     * of the next one that a sweep is firing right now (claimed: {@code fires > 0}) is made due
     * again: that firing may have found this operation still open, and its clean-up of the claimed
     * row must not swallow the wake-up. Any other existing row (in flight, scheduled) stays.
     */
    private static final String SETTLE = """
            WITH settled AS (
                UPDATE entry_operation SET state = %s,
                       ref_id = CASE WHEN ? AND action IN ('publish', 'draft') THEN ? ELSE ref_id END,
                       ref_url = CASE WHEN ? AND action IN ('publish', 'draft') THEN ? ELSE ref_url END
                 WHERE publication_id = ?%s
             RETURNING workspace_id, calendar_entry_id, channel_id, seq, state),
            next AS (
                SELECT o.publication_id FROM entry_operation o JOIN settled s
                    ON o.workspace_id = s.workspace_id AND o.calendar_entry_id = s.calendar_entry_id
                   AND o.channel_id = s.channel_id AND o.seq > s.seq
                 WHERE o.state = 'OPEN' AND s.state <> 'OPEN' AND o.action IN ('update', 'delete')
                   AND NOT EXISTS (SELECT 1 FROM entry_operation b WHERE b.workspace_id = s.workspace_id
                       AND b.calendar_entry_id = s.calendar_entry_id AND b.channel_id = s.channel_id
                       AND b.seq < o.seq AND b.seq <> s.seq AND b.state = 'OPEN')
                 ORDER BY o.seq LIMIT 1)
            INSERT INTO publication_timer (publication_id, kind, attempt_no, trigger, read_no, due_at)
            SELECT publication_id, 'ATTEMPT_DUE', 1, 'INITIAL', 0, now() FROM next
            ON CONFLICT (publication_id) DO UPDATE SET due_at = now(), fires = 0
             WHERE publication_timer.kind = 'ATTEMPT_DUE' AND publication_timer.fires > 0""";
    private static final String SETTLE_TO = SETTLE.formatted("?", "");
    /** A failed upload ends the operation; a failed first comment leaves the post as it is. */
    private static final String SETTLE_UNLESS_COMMENT = SETTLE.formatted("?", " AND NOT (? = ANY(comment_attempts))");
    /** After a NOT_FOUND read-back: a create that never happened settles; a converging step is sent again. */
    private static final String SETTLE_CREATE_ONLY = SETTLE.formatted(
            "CASE WHEN action IN ('publish', 'draft') THEN 'NOT_EXECUTED' ELSE state END",
            " AND NOT (? = ANY(comment_attempts))");

    private final JdbcTemplate jdbc;
    private final EntryLineBatch batch;

    public EntryLines(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.batch = new EntryLineBatch(jdbc);
    }

    @Override
    public Turn turnOf(PublicationId publicationId) {
        List<EntryOperation> line = lines().query("SELECT " + COLUMNS + """
                 FROM entry_operation o JOIN entry_operation me ON me.workspace_id = o.workspace_id
                  AND me.calendar_entry_id = o.calendar_entry_id AND me.channel_id = o.channel_id
                WHERE me.publication_id = ? ORDER BY o.seq""", EntryLines::operation, publicationId.value());
        return EntryTurns.turnOf(line, publicationId);
    }

    /**
     * Whether a delete of the entry's post was accepted after this publication (open or done): its
     * post is meant to go, so reading it again to see it is still there is moot.
     */
    public boolean deleteFollows(PublicationId publicationId) {
        return Boolean.TRUE.equals(lines().queryForObject("""
                SELECT EXISTS (SELECT 1 FROM entry_operation me JOIN entry_operation o
                                 ON o.workspace_id = me.workspace_id AND o.calendar_entry_id = me.calendar_entry_id
                                AND o.channel_id = me.channel_id AND o.seq > me.seq
                              WHERE me.publication_id = ? AND o.action = 'delete' AND o.state <> 'NOT_EXECUTED')""",
                Boolean.class, publicationId.value()));
    }

    @Override
    public boolean hasPostToChange(WorkspaceId workspace, String calendarEntryId, ChannelId channel) {
        return EntryTurns.hasPostToChange(lines().query("SELECT " + COLUMNS + """
                 FROM entry_operation o WHERE o.workspace_id = ? AND o.calendar_entry_id = ? AND o.channel_id = ?
                ORDER BY o.seq""", EntryLines::operation, workspace.value(), calendarEntryId, channel.value()));
    }

    @Override
    public Optional<PublicationId> postCreator(WorkspaceId workspace, String calendarEntryId, ChannelId channel) {
        return EntryTurns.postCreator(lines().query("SELECT " + COLUMNS + """
                 FROM entry_operation o WHERE o.workspace_id = ? AND o.calendar_entry_id = ? AND o.channel_id = ?
                ORDER BY o.seq""", EntryLines::operation, workspace.value(), calendarEntryId, channel.value()));
    }

    @Override
    public boolean targetUnverified(WorkspaceId workspace, String calendarEntryId, ChannelId channel) {
        return EntryTurns.targetUnverified(lines().query("SELECT " + COLUMNS + """
                 FROM entry_operation o WHERE o.workspace_id = ? AND o.calendar_entry_id = ? AND o.channel_id = ?
                ORDER BY o.seq""", EntryLines::operation, workspace.value(), calendarEntryId, channel.value()));
    }

    /** A rare operator's check: it reads the workspace's rows through the line index's first column. */
    @Override
    public Optional<PublicationId> postHolder(WorkspaceId workspace, ChannelId channel, ProviderRef ref,
                                              PublicationId except) {
        List<String> holders = lines().queryForList("""
                SELECT publication_id FROM entry_operation
                 WHERE workspace_id = ? AND publication_id <> ? AND action IN ('publish', 'draft')
                   AND ((channel_id = ? AND ref_id = ?) OR ref_url = ?)
                 ORDER BY seq LIMIT 1""", String.class, workspace.value(), except.value(), channel.value(),
                ref.id(), ref.url());
        return holders.stream().findFirst().map(PublicationId::new);
    }

    @Override
    public boolean isInLine(PublicationId publicationId) {
        Integer n = lines().queryForObject("SELECT count(*) FROM entry_operation WHERE publication_id = ?",
                Integer.class, publicationId.value());
        return n != null && n > 0;
    }

    /** Joins the line with the batch's other new operations ({@link EntryLineBatch}). */
    @EventHandler
    void on(PublicationRequestedEvent event) {
        batch.join(event);
    }

    /** The database, after the batch's gathered writes ({@link EntryLineBatch}). */
    private JdbcTemplate lines() {
        batch.flush();
        return jdbc;
    }

    @EventHandler
    void on(PublicationTargetedEvent event) {
        lines().update("UPDATE entry_operation SET ref_id = ?, ref_url = ? WHERE publication_id = ?",
                event.target().id(), event.target().url(), event.publicationId().value());
    }

    /** Only a publish's side steps write here: a post's own attempt needs no row. */
    @EventHandler
    void on(PublicationAttemptedEvent event) {
        // an attempt recorded without a step was the post's
        if (event.step() != null && !event.step().makesPost()) {
            String column = event.step().preparesPost() ? "upload_attempts" : "comment_attempts";
            lines().update("UPDATE entry_operation SET " + column + " = array_append(" + column + ", ?)"
                    + " WHERE publication_id = ?", event.attemptNo(), event.publicationId().value());
        }
    }

    /**
     * An upload's success or a first comment's result neither settles the operation nor names its
     * post; the batch's successes settle together ({@link EntryLineBatch}).
     */
    @EventHandler
    void on(PublicationSucceededEvent event) {
        batch.settleDone(event.publicationId(), event.providerRef(), event.attemptNo());
    }

    /**
     * An operator's confirmation marks the post it names as read back or not (before the settling,
     * which wakes the next update or delete, commits with it).
     */
    @EventHandler
    void on(PublicationReconciledEvent event) {
        if (event.result() == ReconciliationResult.FOUND) {
            if (event.verified() != null) {
                lines().update("UPDATE entry_operation SET ref_verified = ? WHERE publication_id = ?"
                        + " AND action IN ('publish', 'draft') AND NOT (? = ANY(comment_attempts))",
                        event.verified(), event.publicationId().value(), event.attemptNo());
            }
            settle(SETTLE_UNLESS_COMMENT, event.publicationId(), State.DONE, event.providerRef(), event.attemptNo());
        } else if (event.result() == ReconciliationResult.NOT_FOUND) {
            lines().update(SETTLE_CREATE_ONLY, false, null, false, null, event.publicationId().value(),
                    event.attemptNo());
        }
    }

    @EventHandler
    void on(PublicationFailedEvent event) {
        if (event.retryAt() == null) {
            settle(SETTLE_UNLESS_COMMENT, event.publicationId(), State.NOT_EXECUTED, null, event.attemptNo());
        }
    }

    @EventHandler
    void on(PublicationExecutionRequestedEvent event) {
        settle(event.publicationId(), State.OPEN, null);
    }

    @EventHandler
    void on(PublicationAbandonedEvent event) {
        settle(event.publicationId(), State.NOT_EXECUTED, null);
    }

    @EventHandler
    void on(PublicationSupersededEvent event) {
        settle(event.publicationId(), State.NOT_EXECUTED, null);
    }

    @EventHandler
    void on(PublicationNothingToChangeEvent event) {
        settle(event.publicationId(), State.NOT_EXECUTED, null);
    }

    private void settle(PublicationId id, State state, ProviderRef createdPost) {
        settle(SETTLE_TO, id, state, createdPost);
    }

    private void settle(String sql, PublicationId id, State state, ProviderRef createdPost, Object... attemptNos) {
        boolean hasRef = createdPost != null;
        List<Object> args = new ArrayList<>(List.of(state.name(), hasRef));
        args.add(hasRef ? createdPost.id() : null);
        args.add(hasRef);
        args.add(hasRef ? createdPost.url() : null);
        args.add(id.value());
        args.addAll(List.of(attemptNos));
        lines().update(sql, args.toArray());
    }

    private static EntryOperation operation(ResultSet rs, int n) throws SQLException {
        String refId = rs.getString(6);
        String refUrl = rs.getString(7);
        return new EntryOperation(rs.getLong(1), new PublicationId(rs.getString(2)),
                PublicationAction.fromWireName(rs.getString(3)), rs.getLong(4), State.valueOf(rs.getString(5)),
                refId == null && refUrl == null ? null : new ProviderRef(refId, refUrl),
                Boolean.FALSE.equals(rs.getObject(8, Boolean.class)));
    }
}
