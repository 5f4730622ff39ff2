package io.herald.query.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.PublicationTargetedEvent;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cross-stream rules of an entry's post over time, on events serialized as the store keeps them. */
class EntryLineCheckTest {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private static final Instant T0 = Instant.parse("2026-12-01T09:00:00Z");
    private static final WorkspaceId WS = WorkspaceId.of("acme");
    private static final ChannelId CHANNEL = ChannelId.of("fb-main");
    private static final ProviderRef POST = new ProviderRef("1_2", null);
    private static final Content CONTENT = new Content(null, "text", null);

    private final EntryLineCheck check = new EntryLineCheck();
    private long position;

    private void event(PublicationId id, long sequence, Object payload) {
        check.accept(new StoredEvent(++position, id.value(), sequence, payload.getClass().getSimpleName(), "1",
                T0.toString(), JSON.valueToTree(payload), JSON.createObjectNode()));
    }

    /** An update or delete of the entry's post, from its request to its success. */
    private PublicationId applied(String name, PublicationAction action, long version) {
        PublicationId id = PublicationId.of("pub_" + name);
        event(id, 0, new PublicationRequestedEvent(id, WS, "entry-42", version, CHANNEL, ChannelType.of("facebook"),
                action, CONTENT, CONTENT.hash(), null, T0, "calendar"));
        event(id, 1, new PublicationTargetedEvent(id, WS, POST, T0));
        event(id, 2, attempted(id));
        event(id, 3, new PublicationSucceededEvent(id, WS, 1, POST, null, T0));
        return id;
    }

    private static PublicationAttemptedEvent attempted(PublicationId id) {
        return new PublicationAttemptedEvent(id, WS, CHANNEL, 1, AttemptTrigger.INITIAL, id.value(), "hash", T0,
                T0.plusSeconds(30));
    }

    @Test
    void updatesAppliedInVersionOrderAndADeleteLastAreClean() {
        applied("a", PublicationAction.UPDATE, 2);
        applied("b", PublicationAction.UPDATE, 3);
        applied("c", PublicationAction.DELETE, 3);
        assertThat(check.finish()).isEmpty();
    }

    @Test
    void anOlderUpdateAppliedAfterANewerOneIsABreach() {
        applied("a", PublicationAction.UPDATE, 5);
        PublicationId older = applied("b", PublicationAction.UPDATE, 4);
        List<Breach> breaches = check.finish();
        assertThat(breaches).singleElement().satisfies(b -> {
            assertThat(b.rule()).isEqualTo(EntryLineCheck.UPDATE_ORDER);
            assertThat(b.publicationId()).isEqualTo(older.value());
            assertThat(b.detail()).contains("version 4").contains("version 5");
        });
    }

    @Test
    void anUpdateAttemptedAfterTheDeleteOfItsPostIsABreach() {
        applied("a", PublicationAction.DELETE, 1);
        PublicationId late = applied("b", PublicationAction.UPDATE, 2);
        List<Breach> breaches = check.finish();
        assertThat(breaches).singleElement().satisfies(b -> {
            assertThat(b.rule()).isEqualTo(EntryLineCheck.AFTER_DELETE);
            assertThat(b.publicationId()).isEqualTo(late.value());
        });
    }

    @Test
    void anotherEntrysPostIsNotAffectedByADelete() {
        applied("a", PublicationAction.DELETE, 1);
        PublicationId other = PublicationId.of("pub_other");
        event(other, 0, new PublicationRequestedEvent(other, WS, "entry-43", 2, CHANNEL, ChannelType.of("facebook"),
                PublicationAction.UPDATE, CONTENT, CONTENT.hash(), null, T0, "calendar"));
        event(other, 1, new PublicationTargetedEvent(other, WS, new ProviderRef("1_3", null), T0));
        event(other, 2, attempted(other));
        assertThat(check.finish()).isEmpty();
    }
}
