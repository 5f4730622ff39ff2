package io.herald.reconciliation;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import java.util.Optional;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.stereotype.Component;

/** Reads a publication's stream from the event store: its request and the attempt asked for. */
@Component
public class EventStorePublicationHistory implements PublicationHistory {

    private final EventStore events;

    public EventStorePublicationHistory(EventStore events) {
        this.events = events;
    }

    @Override
    public Optional<AttemptFacts> attempt(PublicationId publicationId, int attemptNo) {
        PublicationRequestedEvent requested = null;
        PublicationAttemptedEvent attempted = null;
        DomainEventStream stream = events.readEvents(publicationId.value());
        while (stream.hasNext()) {
            DomainEventMessage<?> message = stream.next();
            Object payload = message.getPayload();
            if (payload instanceof PublicationRequestedEvent r) {
                requested = r;
            } else if (payload instanceof PublicationAttemptedEvent a && a.attemptNo() == attemptNo) {
                attempted = a;
            }
        }
        if (requested == null || attempted == null) {
            return Optional.empty();
        }
        return Optional.of(new AttemptFacts(requested.channelId(), requested.action(), requested.content(),
                attempted.startedAt()));
    }
}
