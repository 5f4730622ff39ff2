package io.herald.query.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.PublicationView;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.springframework.stereotype.Component;

/**
 * A publication as it stood at an instant: its stream, read from the store (upcast as the
 * projection reads it), up to that instant, applied by the projection's own handlers to rows in
 * memory. No second projection: the same code that keeps {@code publication_view} makes this view,
 * so it is what the projection held then (to the microsecond, as the table keeps its timestamps).
 */
@Component
public class PublicationHistory {

    private final EventStorageEngine store;

    public PublicationHistory(EventStorageEngine store) {
        this.store = store;
    }

    /** Empty when the publication did not exist yet at {@code asOf}, or belongs to another workspace. */
    public Optional<PublicationView> asOf(WorkspaceId workspace, PublicationId id, Instant asOf) {
        Rows rows = new Rows();
        AnnotationEventHandlerAdapter handlers =
                new AnnotationEventHandlerAdapter(new PublicationViewProjection(rows, List.of(), false));
        // from sequence 0, never from a snapshot: the view needs every event
        DomainEventStream stream = store.readEvents(id.value(), 0);
        while (stream.hasNext()) {
            DomainEventMessage<?> event = stream.next();
            if (event.getTimestamp().isAfter(asOf)) {
                break;
            }
            try {
                handlers.handle(event);
            } catch (Exception e) {
                throw new IllegalStateException("publication " + id.value() + " could not be replayed at sequence "
                        + event.getSequenceNumber(), e);
            }
        }
        return rows.findStored(id).map(PublicationViewRepository.Stored::view)
                .filter(view -> view.workspaceId().equals(workspace))
                .map(PublicationViewRepository::asStored);
    }

    /** One stream's rows, in memory. */
    private static final class Rows implements PublicationRows {
        private final Map<PublicationId, PublicationViewRepository.Stored> rows = new HashMap<>();

        @Override
        public Optional<PublicationViewRepository.Stored> findStored(PublicationId id) {
            return Optional.ofNullable(rows.get(id));
        }

        @Override
        public Map<PublicationId, PublicationViewRepository.Stored> findStored(Collection<PublicationId> ids) {
            Map<PublicationId, PublicationViewRepository.Stored> found = new HashMap<>();
            ids.forEach(id -> findStored(id).ifPresent(row -> found.put(id, row)));
            return found;
        }

        @Override
        public void insert(PublicationView view, long sequence) {
            rows.putIfAbsent(view.publicationId(), new PublicationViewRepository.Stored(view, sequence));
        }

        @Override
        public void update(PublicationView view, long sequence) {
            rows.put(view.publicationId(), new PublicationViewRepository.Stored(view, sequence));
        }

        @Override
        public void saveAll(List<PublicationViewRepository.Stored> stored) {
            stored.forEach(row -> rows.put(row.view().publicationId(), row));
        }

        @Override
        public void deleteAll() {
            rows.clear();
        }
    }
}
