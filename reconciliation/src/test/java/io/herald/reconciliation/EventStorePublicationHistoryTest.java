package io.herald.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import java.time.Instant;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.junit.jupiter.api.Test;

class EventStorePublicationHistoryTest {

    private static final PublicationId ID = new PublicationId("pub_" + "c".repeat(64));
    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("fb-main");
    private static final Content CONTENT = new Content(null, "Hello", null);
    private static final Instant T0 = Instant.parse("2026-11-30T09:00:00Z");

    private final EmbeddedEventStore store = EmbeddedEventStore.builder()
            .storageEngine(new InMemoryEventStorageEngine()).build();
    private final EventStorePublicationHistory history = new EventStorePublicationHistory(store);

    private void append(long sequence, Object payload) {
        store.publish(new GenericDomainEventMessage<>("Publication", ID.value(), sequence, payload));
    }

    private static PublicationAttemptedEvent attempted(int n, Instant at) {
        return new PublicationAttemptedEvent(ID, WS, CHANNEL, n, AttemptTrigger.INITIAL, ID.value(), CONTENT.hash(),
                at, at.plusSeconds(120));
    }

    @Test
    void findsTheRequestAndTheAskedForAttempt() {
        append(0, new PublicationRequestedEvent(ID, WS, "entry-1", 3, CHANNEL, ChannelType.FACEBOOK,
                PublicationAction.PUBLISH, CONTENT, CONTENT.hash(), null, T0, "calendar"));
        append(1, attempted(1, T0.plusSeconds(1)));
        append(2, attempted(2, T0.plusSeconds(60)));

        assertThat(history.attempt(ID, 1)).contains(new PublicationHistory.AttemptFacts(CHANNEL,
                PublicationAction.PUBLISH, CONTENT, T0.plusSeconds(1)));
        assertThat(history.attempt(ID, 2)).map(PublicationHistory.AttemptFacts::startedAt)
                .contains(T0.plusSeconds(60));
        assertThat(history.attempt(ID, 3)).isEmpty();
    }

    @Test
    void anUnknownPublicationHasNoHistory() {
        assertThat(history.attempt(new PublicationId("pub_" + "d".repeat(64)), 1)).isEmpty();
    }
}
