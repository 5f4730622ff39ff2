package io.herald.query.decisionqueue;

import static io.herald.query.publication.PublicationEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationPage;
import io.herald.contracts.publication.PublicationView;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.query.ReadStore;
import io.herald.query.publication.PublicationEvents;
import io.herald.query.publication.PublicationViewProjection;
import io.herald.query.publication.PublicationViewRepository;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DecisionQueueIT {

    private static final String WS = "acme";

    private final ReadStore store = ReadStore.shared();
    private final PublicationViewRepository repository =
            new PublicationViewRepository(store.jdbc(), store.objectMapper());
    private final DecisionQueueQueryHandler queue = new DecisionQueueQueryHandler(repository);
    private PublicationEvents events;

    @BeforeEach
    void emptyTables() {
        store.clear();
        events = new PublicationEvents(new PublicationViewProjection(repository));
    }

    @Test
    void listsWhatWaitsForAnOperatorOldestFirstAndNothingElse() {
        PublicationId failed = events.requested(WS, "e-1", "fb-main", T0);
        events.attempted(failed, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.failed(failed, WS, 1, FailureKind.REJECTED, "190", "Page access token required", null, T0.plusSeconds(2));

        PublicationId waitingForReadBack = events.requested(WS, "e-2", "li-main", T0.plusSeconds(10));
        events.attempted(waitingForReadBack, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(11));
        events.outcomeUnknown(waitingForReadBack, WS, 1, T0.plusSeconds(12));

        PublicationId unknown = events.requested(WS, "e-3", "li-main", T0.plusSeconds(20));
        events.attempted(unknown, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(21));
        events.outcomeUnknown(unknown, WS, 1, T0.plusSeconds(22));
        events.reconciled(unknown, WS, 1, ReconciliationResult.UNKNOWN, ReconciliationSource.AUTOMATIC, null,
                "read-back unavailable: missing r_member_social", T0.plusSeconds(60));

        PublicationId notExecuted = events.requested(WS, "e-4", "fb-main", T0.plusSeconds(30));
        events.attempted(notExecuted, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(31));
        events.outcomeUnknown(notExecuted, WS, 1, T0.plusSeconds(32));
        events.reconciled(notExecuted, WS, 1, ReconciliationResult.NOT_FOUND, ReconciliationSource.AUTOMATIC, null,
                null, T0.plusSeconds(62));

        events.requested("globex", "e-5", "fb-main", T0);

        PublicationPage page = queue.handle(new FindDecisionQueueQuery(WorkspaceId.of(WS), null, null, 0));
        assertThat(page.items()).extracting(PublicationView::publicationId)
                .containsExactly(failed, unknown, notExecuted);
        assertThat(page.items()).allSatisfy(v -> assertThat(v.decisionReason()).isNotBlank());
        assertThat(page.nextCursor()).isNull();

        PublicationPage first = queue.handle(new FindDecisionQueueQuery(WorkspaceId.of(WS), null, null, 2));
        PublicationPage second = queue.handle(new FindDecisionQueueQuery(WorkspaceId.of(WS), null, first.nextCursor(), 2));
        assertThat(first.items()).extracting(PublicationView::publicationId).containsExactly(failed, unknown);
        assertThat(second.items()).extracting(PublicationView::publicationId).containsExactly(notExecuted);

        assertThat(queue.handle(new FindDecisionQueueQuery(WorkspaceId.of(WS), ChannelId.of("li-main"), null, 0))
                .items()).extracting(PublicationView::publicationId).containsExactly(unknown);
        assertThat(queue.handle(new FindDecisionQueueQuery(WorkspaceId.of("globex"), null, null, 0)).items()).isEmpty();
    }
}
