package io.herald.query.publication;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.PublicationPage;
import io.herald.contracts.publication.PublicationView;
import io.herald.contracts.publication.PublicationView.AttemptOutcome;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A publication's {@code throttledUntil}, read when it is shown: while its next attempt waits to
 * start (REQUESTED or RETRY_SCHEDULED, or ATTEMPTING between two steps, such as a media container
 * made and its post not yet published), the time its connection's budget ({@code connection_budget})
 * allows an attempt, if that is later than now and than the time it was due anyway. Throttling is a
 * reason, not a state: the stored view never changes for it.
 */
@Component
public class ConnectionThrottles {

    private final JdbcTemplate jdbc;

    public ConnectionThrottles(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<PublicationView> apply(Optional<PublicationView> view) {
        return view.map(v -> apply(v, new HashMap<>()));
    }

    public PublicationPage apply(PublicationPage page) {
        Map<String, Optional<Instant>> byConnection = new HashMap<>();
        List<PublicationView> items = page.items().stream().map(v -> apply(v, byConnection)).toList();
        return new PublicationPage(items, page.nextCursor());
    }

    private PublicationView apply(PublicationView view, Map<String, Optional<Instant>> byConnection) {
        if (!awaitsAnAttempt(view)) {
            return view;
        }
        Optional<Instant> until = byConnection.computeIfAbsent(view.workspaceId().value() + "/"
                + view.channelId().value(), key -> budgetAllowsAt(view.workspaceId(), view.channelId()));
        if (until.isEmpty() || (view.scheduledAt() != null && !view.scheduledAt().isBefore(until.get()))) {
            return view;
        }
        return view.throttledUntil(until.get());
    }

    /** Whether its next attempt is still to start: it waits for it, so a budget can hold it back. */
    private static boolean awaitsAnAttempt(PublicationView view) {
        return switch (view.status()) {
            case REQUESTED, RETRY_SCHEDULED -> true;
            // a step before the post leaves it ATTEMPTING: between two steps no attempt is in flight
            case ATTEMPTING -> view.attempts().stream().noneMatch(a -> a.outcome() == AttemptOutcome.IN_FLIGHT);
            default -> false;
        };
    }

    /** When the connection's budget next allows an attempt, if not now. */
    private Optional<Instant> budgetAllowsAt(WorkspaceId workspace, ChannelId channel) {
        List<Timestamp> at = jdbc.queryForList("""
                SELECT max(t) FROM (
                    SELECT blocked_until AS t FROM connection_budget
                     WHERE workspace_id = ? AND channel_id = ? AND blocked_until > now()
                    UNION ALL
                    SELECT window_start + make_interval(secs => window_seconds) FROM connection_budget
                     WHERE workspace_id = ? AND channel_id = ? AND capacity IS NOT NULL AND used >= capacity
                       AND window_start + make_interval(secs => window_seconds) > now()) waits""",
                Timestamp.class, workspace.value(), channel.value(), workspace.value(), channel.value());
        return at.isEmpty() || at.get(0) == null ? Optional.empty() : Optional.of(at.get(0).toInstant());
    }
}
