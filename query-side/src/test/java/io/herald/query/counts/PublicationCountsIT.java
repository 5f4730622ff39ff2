package io.herald.query.counts;

import static io.herald.query.publication.PublicationEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.query.ReadStore;
import io.herald.query.publication.PublicationEvents;
import io.herald.query.publication.PublicationViewProjection;
import io.herald.query.publication.PublicationViewRepository;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PublicationCountsIT {

    private static final String WS = "acme";

    private final ReadStore store = ReadStore.shared();
    private final PublicationCountsQueryHandler counts = new PublicationCountsQueryHandler(store.jdbc());
    private PublicationEvents events;

    @BeforeEach
    void emptyTables() {
        store.clear();
        events = new PublicationEvents(new PublicationViewProjection(
                new PublicationViewRepository(store.jdbc(), store.objectMapper())));
    }

    @Test
    void countsPerStatusAndPerChannelOfOneWorkspace() {
        PublicationId failed = events.requested(WS, "e-1", "fb-main", T0);
        events.attempted(failed, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.failed(failed, WS, 1, FailureKind.REJECTED, "190", "Page access token required", null, T0.plusSeconds(2));
        PublicationId succeeded = events.requested(WS, "e-2", "fb-main", T0);
        events.attempted(succeeded, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.succeeded(succeeded, WS, 1, null, T0.plusSeconds(2));
        events.requested(WS, "e-3", "fb-main", T0);
        events.requested(WS, "e-4", "li-main", T0);
        events.requested("globex", "e-5", "li-main", T0);

        PublicationCounts answer = counts.handle(new FindPublicationCountsQuery(WorkspaceId.of(WS)));

        assertThat(answer.total()).isEqualTo(4);
        assertThat(answer.needsDecision()).isEqualTo(1);
        assertThat(answer.byStatus()).containsEntry(PublicationStatus.REQUESTED, 2L)
                .containsEntry(PublicationStatus.FAILED, 1L)
                .containsEntry(PublicationStatus.SUCCEEDED, 1L)
                .containsEntry(PublicationStatus.ABANDONED, 0L)
                .hasSize(PublicationStatus.values().length);
        assertThat(answer.byChannel()).containsOnlyKeys("fb-main", "li-main");
        PublicationCounts.ChannelCounts facebook = answer.byChannel().get("fb-main");
        assertThat(facebook.total()).isEqualTo(3);
        assertThat(facebook.needsDecision()).isEqualTo(1);
        assertThat(facebook.byStatus()).isEqualTo(Map.of(PublicationStatus.REQUESTED, 1L,
                PublicationStatus.FAILED, 1L, PublicationStatus.SUCCEEDED, 1L));
        assertThat(answer.byChannel().get("li-main").byStatus()).isEqualTo(Map.of(PublicationStatus.REQUESTED, 1L));
    }

    @Test
    void anEmptyWorkspaceCountsZeroEverywhere() {
        events.requested("globex", "e-1", "fb-main", T0);

        PublicationCounts answer = counts.handle(new FindPublicationCountsQuery(WorkspaceId.of(WS)));

        assertThat(answer.total()).isZero();
        assertThat(answer.byStatus().values()).containsOnly(0L);
        assertThat(answer.byChannel()).isEmpty();
    }
}
