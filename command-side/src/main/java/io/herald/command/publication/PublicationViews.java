package io.herald.command.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.FindPublicationQuery;
import io.herald.contracts.publication.PublicationView;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.stereotype.Component;

/**
 * Reads the publication view for command responses. Projections follow the event store
 * asynchronously, so a response that should reflect a just-recorded change waits briefly for it.
 */
@Component
class PublicationViews {

    private static final Duration PATIENCE = Duration.ofSeconds(3);
    private static final long POLL_MILLIS = 25;

    private final QueryGateway queries;

    PublicationViews(QueryGateway queries) {
        this.queries = queries;
    }

    Optional<PublicationView> find(WorkspaceId workspace, PublicationId id) {
        return queries.query(new FindPublicationQuery(workspace, id),
                ResponseTypes.optionalInstanceOf(PublicationView.class)).join();
    }

    /** The view once it shows a change recorded at or after {@code since}; the latest seen otherwise. */
    Optional<PublicationView> awaitUpdatedSince(WorkspaceId workspace, PublicationId id, Instant since) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        Optional<PublicationView> view = find(workspace, id);
        while (System.nanoTime() < deadline
                && view.map(v -> v.updatedAt() == null || v.updatedAt().isBefore(since)).orElse(true)) {
            sleep();
            view = find(workspace, id);
        }
        return view;
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
