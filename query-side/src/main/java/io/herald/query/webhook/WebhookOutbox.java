package io.herald.query.webhook;

import io.herald.contracts.id.WorkspaceId;
import io.herald.platform.tracing.Traces;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The webhook outbox ({@code webhook_delivery}) and the subscriptions, written with the webhook's
 * own events ({@code webhook_subscription_view}). Senders on every node claim due rows with
 * {@code FOR UPDATE SKIP LOCKED}, so each delivery is tried by one node at a time, and record each
 * try under the lease they claimed it with: a sender whose lease ran out records nothing. Claims
 * take the workspaces in turn, so no workspace's backlog delays another's deliveries.
 */
@Repository
public class WebhookOutbox {

    /** The column's width; a W3C traceparent of version 00 is 55 characters. */
    private static final int TRACEPARENT_MAX = 128;
    private static final String BATCH_SUBSCRIPTIONS = WebhookOutbox.class.getName() + ".subscriptions";

    public static final String PENDING = "PENDING";
    public static final String DELIVERED = "DELIVERED";
    public static final String FAILED = "FAILED";

    private final JdbcTemplate jdbc;

    public WebhookOutbox(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** A subscription as the projection sees it. */
    record Subscription(String webhookId, List<String> events) {
    }

    /** A delivery a sender claimed: {@code tries} counts the try about to be made. */
    /** {@code traceparent}: the trace of the event that made the delivery, if it carried one. */
    public record Claimed(String deliveryId, WorkspaceId workspaceId, String webhookId, String body, int tries,
                          String leaseToken, String traceparent) {
    }

    /** One row of the delivery log (docs/api.md#webhooks). */
    public record Delivery(String deliveryId, String type, String publicationId, String status, int tries,
                           Integer lastStatusCode, String lastError, Instant nextTryAt, Instant createdAt,
                           Instant deliveredAt, long position) {
    }

    public record Counts(long pending, long failed) {
    }

    /** A webhook whose endpoint is paused: its deliveries are not claimed. */
    public record PausedWebhook(WorkspaceId workspaceId, String webhookId) {
    }

    // --- the projection's side --------------------------------------------------------------

    void subscribe(WorkspaceId workspace, String webhookId, List<String> events, boolean enabled) {
        jdbc.update("""
                INSERT INTO webhook_subscription_view (workspace_id, webhook_id, events, enabled) VALUES (?, ?, ?, ?)
                ON CONFLICT (workspace_id, webhook_id) DO UPDATE SET events = EXCLUDED.events,
                    enabled = EXCLUDED.enabled""", workspace.value(), webhookId, events.toArray(String[]::new),
                enabled);
    }

    void unsubscribe(WorkspaceId workspace, String webhookId) {
        jdbc.update("DELETE FROM webhook_subscription_view WHERE workspace_id = ? AND webhook_id = ?",
                workspace.value(), webhookId);
    }

    /**
     * A workspace's enabled subscriptions, read once per batch of the projection. Subscriptions change
     * in the webhook's own transaction, never inside a batch: one that commits meanwhile is seen by the
     * next batch, which applies only events stored after the one that read it.
     */
    List<Subscription> enabledSubscriptions(WorkspaceId workspace) {
        Optional<Map<WorkspaceId, List<Subscription>>> known = batchSubscriptions();
        if (known.isEmpty()) {
            return readSubscriptions(workspace);
        }
        return known.get().computeIfAbsent(workspace, this::readSubscriptions);
    }

    private static Optional<Map<WorkspaceId, List<Subscription>>> batchSubscriptions() {
        if (!CurrentUnitOfWork.isStarted()) {
            return Optional.empty();
        }
        return Optional.of(CurrentUnitOfWork.get().root().getOrComputeResource(BATCH_SUBSCRIPTIONS,
                key -> new HashMap<>()));
    }

    private List<Subscription> readSubscriptions(WorkspaceId workspace) {
        return jdbc.query("SELECT webhook_id, events FROM webhook_subscription_view WHERE workspace_id = ? AND enabled",
                (rs, row) -> new Subscription(rs.getString("webhook_id"),
                        Arrays.asList((String[]) rs.getArray("events").getArray())), workspace.value());
    }

    /** A redelivered event (same id) adds nothing. The delivery continues the trace of the event being handled. */
    void insert(String deliveryId, WorkspaceId workspace, String webhookId, String publicationId, long sequence,
                String type, String body, Instant at) {
        jdbc.update("""
                INSERT INTO webhook_delivery (delivery_id, workspace_id, webhook_id, publication_id, event_sequence,
                    event_type, body, status, next_try_at, created_at, traceparent)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?, ?)
                ON CONFLICT (delivery_id) DO NOTHING""",
                deliveryId, workspace.value(), webhookId, publicationId, sequence, type, body, Timestamp.from(at),
                Timestamp.from(at), traceOfCurrentMessage());
    }

    private static String traceOfCurrentMessage() {
        if (!CurrentUnitOfWork.isStarted() || CurrentUnitOfWork.get().getMessage() == null) {
            return null;
        }
        Object traceparent = CurrentUnitOfWork.get().getMessage().getMetaData().get(Traces.TRACEPARENT);
        return traceparent == null || traceparent.toString().length() > TRACEPARENT_MAX ? null : traceparent.toString();
    }

    // --- the senders' side ------------------------------------------------------------------

    /**
     * Claims up to {@code limit} due deliveries until {@code leaseUntil}, counting the try, taking
     * each workspace's in turn; see {@link #claim(Instant, Instant, String, int, int, Map, Collection)}.
     */
    public List<Claimed> claim(Instant now, Instant leaseUntil, String leaseToken, int limit) {
        return claim(now, leaseUntil, leaseToken, limit, limit, Map.of(), List.of());
    }

    /**
     * Claims up to {@code limit} due deliveries until {@code leaseUntil}, counting the try. A
     * delivery is due only when no earlier delivery of the same webhook about the same
     * publication is still pending (deliveries about a publication go out in the order of its
     * events), and its webhook is not {@code paused}.
     * <p>
     * Workspaces take turns: each workspace's due deliveries are ranked oldest first, and the
     * claim takes every workspace's first, then every workspace's second, and so on, so a
     * workspace with a thousand due deliveries delays another's first by at most one turn. No
     * workspace gets more than {@code perWorkspace} minus what this node already has in flight for
     * it ({@code inFlight}). One statement: a walk over the workspaces with due rows (a skip scan
     * of {@code webhook_delivery_due_per_workspace_idx}), for each a range scan of the same index
     * for its first few due rows, then the rows taken are locked ({@code SKIP LOCKED}: another
     * node's claim is passed over) and leased. A row another node leased meanwhile is no longer
     * due when its lock is taken, so it is not claimed twice.
     */
    public List<Claimed> claim(Instant now, Instant leaseUntil, String leaseToken, int limit, int perWorkspace,
                               Map<WorkspaceId, Integer> inFlight, Collection<PausedWebhook> paused) {
        String[] busyWorkspaces = inFlight.keySet().stream().map(WorkspaceId::value).toArray(String[]::new);
        Integer[] busyCounts = inFlight.keySet().stream().map(inFlight::get).toArray(Integer[]::new);
        String[] pausedWorkspaces = paused.stream().map(p -> p.workspaceId().value()).toArray(String[]::new);
        String[] pausedWebhooks = paused.stream().map(PausedWebhook::webhookId).toArray(String[]::new);
        Timestamp at = Timestamp.from(now);
        return jdbc.query(con -> {
            PreparedStatement statement = con.prepareStatement("""
                WITH RECURSIVE due_workspace(workspace_id) AS (
                    (SELECT w.workspace_id FROM webhook_delivery w
                     WHERE w.status = 'PENDING' AND w.next_try_at <= ?
                     ORDER BY w.workspace_id LIMIT 1)
                    UNION ALL
                    SELECT (SELECT w.workspace_id FROM webhook_delivery w
                            WHERE w.status = 'PENDING' AND w.next_try_at <= ? AND w.workspace_id > due.workspace_id
                            ORDER BY w.workspace_id LIMIT 1)
                    FROM due_workspace due WHERE due.workspace_id IS NOT NULL
                ),
                busy(workspace_id, in_flight) AS (SELECT * FROM unnest(?::text[], ?::int[])),
                paused(workspace_id, webhook_id) AS (SELECT * FROM unnest(?::text[], ?::text[])),
                candidate AS (
                    SELECT c.delivery_id, c.next_try_at, c.position,
                           row_number() OVER (PARTITION BY due.workspace_id ORDER BY c.next_try_at, c.position) AS turn
                    FROM due_workspace due
                    LEFT JOIN busy ON busy.workspace_id = due.workspace_id
                    CROSS JOIN LATERAL (
                        SELECT d.delivery_id, d.next_try_at, d.position FROM webhook_delivery d
                        WHERE d.workspace_id = due.workspace_id AND d.status = 'PENDING' AND d.next_try_at <= ?
                          AND NOT EXISTS (SELECT 1 FROM paused p
                                          WHERE p.workspace_id = d.workspace_id AND p.webhook_id = d.webhook_id)
                          AND NOT EXISTS (SELECT 1 FROM webhook_delivery e
                                          WHERE e.workspace_id = d.workspace_id AND e.webhook_id = d.webhook_id
                                            AND e.publication_id = d.publication_id AND e.status = 'PENDING'
                                            AND (e.event_sequence, e.position) < (d.event_sequence, d.position))
                        ORDER BY d.next_try_at, d.position
                        LIMIT greatest(0, least(? - coalesce(busy.in_flight, 0), ?))) c
                    WHERE due.workspace_id IS NOT NULL
                ),
                taken AS (
                    SELECT d.delivery_id FROM webhook_delivery d
                    WHERE d.delivery_id IN (SELECT delivery_id FROM candidate
                                            ORDER BY turn, next_try_at, position LIMIT ?)
                      AND d.status = 'PENDING' AND d.next_try_at <= ?
                    FOR UPDATE SKIP LOCKED
                )
                UPDATE webhook_delivery d SET tries = d.tries + 1, next_try_at = ?, lease_token = ?
                FROM taken WHERE d.delivery_id = taken.delivery_id
                RETURNING d.delivery_id, d.workspace_id, d.webhook_id, d.body, d.tries, d.lease_token,
                    d.traceparent""");
            int i = 0;
            statement.setTimestamp(++i, at);
            statement.setTimestamp(++i, at);
            statement.setArray(++i, con.createArrayOf("text", busyWorkspaces));
            statement.setArray(++i, con.createArrayOf("int4", busyCounts));
            statement.setArray(++i, con.createArrayOf("text", pausedWorkspaces));
            statement.setArray(++i, con.createArrayOf("text", pausedWebhooks));
            statement.setTimestamp(++i, at);
            statement.setInt(++i, perWorkspace);
            statement.setInt(++i, limit);
            statement.setInt(++i, limit);
            statement.setTimestamp(++i, at);
            statement.setTimestamp(++i, Timestamp.from(leaseUntil));
            statement.setString(++i, leaseToken);
            return statement;
        }, (rs, row) -> new Claimed(rs.getString("delivery_id"), new WorkspaceId(rs.getString("workspace_id")),
                rs.getString("webhook_id"), rs.getString("body"), rs.getInt("tries"), rs.getString("lease_token"),
                rs.getString("traceparent")));
    }

    public boolean delivered(Claimed claimed, int statusCode, Instant at) {
        return 1 == jdbc.update("""
                UPDATE webhook_delivery SET status = 'DELIVERED', lease_token = NULL, last_status_code = ?,
                    last_error = NULL, delivered_at = ?
                WHERE delivery_id = ? AND lease_token = ?""",
                statusCode, Timestamp.from(at), claimed.deliveryId(), claimed.leaseToken());
    }

    public boolean retryAt(Claimed claimed, Integer statusCode, String error, Instant nextTryAt) {
        return 1 == jdbc.update("""
                UPDATE webhook_delivery SET lease_token = NULL, last_status_code = ?, last_error = ?, next_try_at = ?
                WHERE delivery_id = ? AND lease_token = ?""",
                statusCode, error, Timestamp.from(nextTryAt), claimed.deliveryId(), claimed.leaseToken());
    }

    public boolean failed(Claimed claimed, Integer statusCode, String error) {
        return 1 == jdbc.update("""
                UPDATE webhook_delivery SET status = 'FAILED', lease_token = NULL, last_status_code = ?, last_error = ?
                WHERE delivery_id = ? AND lease_token = ?""",
                statusCode, error, claimed.deliveryId(), claimed.leaseToken());
    }

    /** Not tried after all (the webhook is disabled): the claimed try is given back. */
    public boolean postpone(Claimed claimed, Instant nextTryAt) {
        return 1 == jdbc.update("""
                UPDATE webhook_delivery SET lease_token = NULL, tries = tries - 1, next_try_at = ?
                WHERE delivery_id = ? AND lease_token = ?""",
                Timestamp.from(nextTryAt), claimed.deliveryId(), claimed.leaseToken());
    }

    public Counts counts() {
        Map<String, Object> counts = jdbc.queryForMap("""
                SELECT count(*) FILTER (WHERE status = 'PENDING') AS pending,
                       count(*) FILTER (WHERE status = 'FAILED') AS failed
                FROM webhook_delivery""");
        return new Counts(((Number) counts.get("pending")).longValue(), ((Number) counts.get("failed")).longValue());
    }

    // --- the delivery log ---------------------------------------------------------------------

    /** Newest first, from before {@code beforePosition} (null: from the newest). */
    List<Delivery> page(WorkspaceId workspace, String webhookId, String status, Long beforePosition, int limit) {
        return jdbc.query("""
                SELECT * FROM webhook_delivery
                WHERE workspace_id = ? AND webhook_id = ? AND (?::text IS NULL OR status = ?)
                  AND (?::bigint IS NULL OR position < ?)
                ORDER BY position DESC LIMIT ?""",
                this::delivery, workspace.value(), webhookId, status, status, beforePosition, beforePosition, limit);
    }

    /** Sends the delivery again soon, with the same id; false when the webhook has no such delivery. */
    boolean redeliver(WorkspaceId workspace, String webhookId, String deliveryId, Instant now) {
        return 1 == jdbc.update("""
                UPDATE webhook_delivery SET status = 'PENDING',
                    next_try_at = CASE WHEN lease_token IS NULL THEN ? ELSE next_try_at END, delivered_at = NULL
                WHERE workspace_id = ? AND webhook_id = ? AND delivery_id = ?""",
                Timestamp.from(now), workspace.value(), webhookId, deliveryId);
    }

    private Delivery delivery(ResultSet rs, int row) throws SQLException {
        int code = rs.getInt("last_status_code");
        Integer lastStatusCode = rs.wasNull() ? null : code;
        String status = rs.getString("status");
        Timestamp deliveredAt = rs.getTimestamp("delivered_at");
        String type = rs.getString("event_type");
        // channel events keep their connection's id in that column, for their order; they name no publication
        String publicationId = type.startsWith("channel.") ? null : rs.getString("publication_id");
        return new Delivery(rs.getString("delivery_id"), type, publicationId,
                status, rs.getInt("tries"), lastStatusCode, rs.getString("last_error"),
                PENDING.equals(status) ? rs.getTimestamp("next_try_at").toInstant() : null,
                rs.getTimestamp("created_at").toInstant(), deliveredAt == null ? null : deliveredAt.toInstant(),
                rs.getLong("position"));
    }
}
