package io.herald.query.publication;

import static io.herald.query.publication.PublicationEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.FindPublicationQuery;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationView;
import io.herald.contracts.publication.PublicationView.AttemptOutcome;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.UnknownCause;
import io.herald.query.ReadStore;
import io.herald.query.decisionqueue.DecisionQueueQueryHandler;
import io.herald.query.decisionqueue.FindDecisionQueueQuery;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The publication view on a real PostgreSQL, fed event objects as the event processor would. */
class PublicationViewProjectionIT {

    private static final String WS = "acme";
    private static final ProviderRef POST = new ProviderRef("123_456", "https://facebook.com/123_456");

    private final ReadStore store = ReadStore.shared();
    private final PublicationViewRepository repository =
            new PublicationViewRepository(store.jdbc(), store.objectMapper());
    private final PublicationViewProjection projection = new PublicationViewProjection(repository);
    private final PublicationQueryHandler queries = new PublicationQueryHandler(repository);
    private PublicationEvents events;

    @BeforeEach
    void emptyTables() {
        store.clear();
        events = new PublicationEvents(projection);
    }

    @Test
    void aRequestedPublicationShowsWhatWasRequested() {
        PublicationId id = events.requested(WS, "entry-42", "fb-main", T0);

        PublicationView view = view(id);
        assertThat(view.publicationId()).isEqualTo(id);
        assertThat(view.workspaceId()).isEqualTo(WorkspaceId.of(WS));
        assertThat(view.calendarEntryId()).isEqualTo("entry-42");
        assertThat(view.contentVersion()).isEqualTo(3);
        assertThat(view.channelId().value()).isEqualTo("fb-main");
        assertThat(view.channelType()).isEqualTo(ChannelType.of("facebook"));
        assertThat(view.action()).isEqualTo(PublicationAction.PUBLISH);
        assertThat(view.status()).isEqualTo(PublicationStatus.REQUESTED);
        assertThat(view.contentHash()).hasSize(64);
        assertThat(view.requestedAt()).isEqualTo(T0);
        assertThat(view.scheduledAt()).isEqualTo(T0.plus(Duration.ofHours(1)));
        assertThat(view.updatedAt()).isEqualTo(T0);
        assertThat(view.attempts()).isEmpty();
        assertThat(view.reconciliations()).isEmpty();
        assertThat(view.providerRef()).isNull();
        assertThat(view.needsDecision()).isFalse();
    }

    @Test
    void anAttemptIsInFlightUntilItsResultArrives() {
        PublicationId id = events.requested(WS, "entry-42", "fb-main", T0);
        events.attempted(id, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.ATTEMPTING);
        assertThat(view.attempts()).singleElement().satisfies(a -> {
            assertThat(a.attemptNo()).isEqualTo(1);
            assertThat(a.trigger()).isEqualTo(AttemptTrigger.INITIAL);
            assertThat(a.startedAt()).isEqualTo(T0.plusSeconds(1));
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.IN_FLIGHT);
            assertThat(a.finishedAt()).isNull();
        });
        assertThat(view.updatedAt()).isEqualTo(T0.plusSeconds(1));
    }

    @Test
    void successRecordsWhereThePostLivesAndTheTrace() {
        PublicationId id = events.requested(WS, "entry-42", "fb-main", T0);
        events.attempted(id, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.succeeded(id, WS, 1, POST, T0.plusSeconds(2));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(view.providerRef()).isEqualTo(POST);
        assertThat(view.needsDecision()).isFalse();
        assertThat(view.attempts()).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.SUCCEEDED);
            assertThat(a.httpStatus()).isEqualTo(200);
            assertThat(a.providerTraceId()).isEqualTo("trace-ok");
            assertThat(a.requestFingerprint()).isEqualTo("fp-1");
            assertThat(a.responseReceived()).isTrue();
            assertThat(a.startedAt()).isEqualTo(T0.plusSeconds(1));
            assertThat(a.finishedAt()).isEqualTo(T0.plusSeconds(2));
        });
    }

    @Test
    void aFailureThatProvablyDidNotExecuteSchedulesARetry() {
        Instant retryAt = T0.plusSeconds(60);
        PublicationId id = events.requested(WS, "entry-42", "fb-main", T0);
        events.attempted(id, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.failed(id, WS, 1, FailureKind.NOT_SENT, "connect_timeout", "connect timed out", retryAt,
                T0.plusSeconds(2));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.RETRY_SCHEDULED);
        assertThat(view.needsDecision()).isFalse();
        assertThat(view.decisionReason()).isNull();
        assertThat(view.attempts()).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.FAILED);
            assertThat(a.failureKind()).isEqualTo(FailureKind.NOT_SENT);
            assertThat(a.retryAt()).isEqualTo(retryAt);
            assertThat(a.responseReceived()).isFalse();
            assertThat(a.httpStatus()).isNull();
            assertThat(a.providerCode()).isEqualTo("connect_timeout");
            assertThat(a.detail()).isEqualTo("connect timed out");
        });
    }

    @Test
    void aFinalFailureWaitsForAnOperatorWithItsCause() {
        PublicationId id = events.requested(WS, "entry-42", "fb-main", T0);
        events.attempted(id, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.failed(id, WS, 1, FailureKind.REJECTED, "190", "Page access token required", null,
                T0.plusSeconds(2));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.FAILED);
        assertThat(view.needsDecision()).isTrue();
        assertThat(view.decisionReason()).contains("Page access token required").contains("190");
        assertThat(view.attempts()).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.FAILED);
            assertThat(a.failureKind()).isEqualTo(FailureKind.REJECTED);
            assertThat(a.httpStatus()).isEqualTo(400);
            assertThat(a.providerCode()).isEqualTo("190");
            assertThat(a.providerTraceId()).isEqualTo("trace-1");
            assertThat(a.retryAt()).isNull();
        });
    }

    @Test
    void anUnknownOutcomeWaitsForTheReadBackBeforeAskingAnOperator() {
        PublicationId id = unknownAfterFirstAttempt();

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.OUTCOME_UNKNOWN);
        assertThat(view.needsDecision()).isFalse();
        assertThat(view.attempts()).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.OUTCOME_UNKNOWN);
            assertThat(a.unknownCause()).isEqualTo(UnknownCause.READ_TIMEOUT);
            assertThat(a.responseReceived()).isFalse();
            assertThat(a.detail()).isEqualTo("no response within 30 s after sending");
        });
    }

    @Test
    void aReadBackThatFindsThePostConfirmsSuccess() {
        PublicationId id = unknownAfterFirstAttempt();
        events.reconciled(id, WS, 1, ReconciliationResult.FOUND, ReconciliationSource.AUTOMATIC, POST,
                "one post with the same text", T0.plusSeconds(60));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(view.providerRef()).isEqualTo(POST);
        assertThat(view.needsDecision()).isFalse();
        assertThat(view.attempts().get(0).outcome()).isEqualTo(AttemptOutcome.OUTCOME_UNKNOWN);
        assertThat(view.reconciliations()).singleElement().satisfies(r -> {
            assertThat(r.result()).isEqualTo(ReconciliationResult.FOUND);
            assertThat(r.source()).isEqualTo(ReconciliationSource.AUTOMATIC);
            assertThat(r.attemptNo()).isEqualTo(1);
            assertThat(r.at()).isEqualTo(T0.plusSeconds(60));
            assertThat(r.providerRef()).isEqualTo(POST);
        });
    }

    @Test
    void aReadBackThatFindsNothingMeansNotExecutedAndAsksAnOperator() {
        PublicationId id = unknownAfterFirstAttempt();
        events.reconciled(id, WS, 1, ReconciliationResult.NOT_FOUND, ReconciliationSource.AUTOMATIC, null,
                "no post in the window", T0.plusSeconds(60));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.NOT_EXECUTED);
        assertThat(view.needsDecision()).isTrue();
        assertThat(view.decisionReason())
                .contains("read-back found nothing")
                .contains("confirm not published, re-attempt or abandon")
                .contains("no post in the window");
    }

    @Test
    void aReadBackThatCannotTellAsksAnOperatorWithItsReason() {
        PublicationId id = unknownAfterFirstAttempt();
        events.reconciled(id, WS, 1, ReconciliationResult.UNKNOWN, ReconciliationSource.AUTOMATIC, null,
                "read-back unavailable: missing r_member_social", T0.plusSeconds(60));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.OUTCOME_UNKNOWN);
        assertThat(view.needsDecision()).isTrue();
        assertThat(view.decisionReason()).isEqualTo("read-back unavailable: missing r_member_social");
    }

    @Test
    void aReconciliationOfAnOlderAttemptIsKeptButChangesNothing() {
        PublicationId id = unknownAfterFirstAttempt();
        events.reconciled(id, WS, 1, ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR, null, null,
                T0.plusSeconds(60));
        events.executionRequested(id, WS, AttemptTrigger.OPERATOR_REATTEMPT, T0.plusSeconds(70));
        events.attempted(id, WS, 2, AttemptTrigger.OPERATOR_REATTEMPT, T0.plusSeconds(71));
        events.reconciled(id, WS, 1, ReconciliationResult.UNKNOWN, ReconciliationSource.AUTOMATIC, null,
                "late read-back of attempt 1", T0.plusSeconds(72));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.ATTEMPTING);
        assertThat(view.needsDecision()).isFalse();
        assertThat(view.reconciliations()).hasSize(2);
    }

    @Test
    void anOperatorsConfirmationThatNothingWasPublishedLeavesReattemptOrAbandon() {
        PublicationId id = unknownAfterFirstAttempt();
        events.reconciled(id, WS, 1, ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR, null, null,
                T0.plusSeconds(60));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.NOT_EXECUTED);
        assertThat(view.needsDecision()).isTrue();
        assertThat(view.decisionReason()).contains("confirmed not published by olga").contains("re-attempt or abandon");
        assertThat(view.reconciliations()).singleElement().satisfies(r -> {
            assertThat(r.decidedBy()).isEqualTo("olga");
            assertThat(r.note()).isEqualTo("checked the Page by hand");
        });
    }

    @Test
    void anAuthorisedNewAttemptIsScheduledAndLeavesTheQueue() {
        PublicationId id = events.requested(WS, "entry-42", "fb-main", T0);
        events.attempted(id, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.failed(id, WS, 1, FailureKind.REJECTED, "190", "Page access token required", null,
                T0.plusSeconds(2));
        events.executionRequested(id, WS, AttemptTrigger.OPERATOR_REATTEMPT, T0.plusSeconds(100));

        PublicationView afterRequest = view(id);
        assertThat(afterRequest.status()).isEqualTo(PublicationStatus.RETRY_SCHEDULED);
        assertThat(afterRequest.needsDecision()).isFalse();
        assertThat(afterRequest.decisionReason()).isNull();
        assertThat(afterRequest.updatedAt()).isEqualTo(T0.plusSeconds(100));

        events.attempted(id, WS, 2, AttemptTrigger.OPERATOR_REATTEMPT, T0.plusSeconds(101));
        events.succeeded(id, WS, 2, POST, T0.plusSeconds(102));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(view.attempts()).extracting(PublicationView.Attempt::outcome)
                .containsExactly(AttemptOutcome.FAILED, AttemptOutcome.SUCCEEDED);
        assertThat(view.attempts()).extracting(PublicationView.Attempt::trigger)
                .containsExactly(AttemptTrigger.INITIAL, AttemptTrigger.OPERATOR_REATTEMPT);
    }

    @Test
    void anAbandonedPublicationEndsWithoutADecision() {
        PublicationId id = events.requested(WS, "entry-42", "fb-main", T0);
        events.attempted(id, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.failed(id, WS, 1, FailureKind.REJECTED, "190", "Page access token required", null,
                T0.plusSeconds(2));
        events.abandoned(id, WS, T0.plusSeconds(300));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.ABANDONED);
        assertThat(view.needsDecision()).isFalse();
        assertThat(view.decisionReason()).isNull();
        assertThat(view.updatedAt()).isEqualTo(T0.plusSeconds(300));
    }

    @Test
    void aDuplicateRefusalOnAReattemptConfirmsTheEarlierPostAndClosesTheAttempt() {
        PublicationId id = unknownAfterFirstAttempt();
        events.reconciled(id, WS, 1, ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR, null, null,
                T0.plusSeconds(60));
        events.executionRequested(id, WS, AttemptTrigger.OPERATOR_REATTEMPT, T0.plusSeconds(70));
        events.attempted(id, WS, 2, AttemptTrigger.OPERATOR_REATTEMPT, T0.plusSeconds(71));
        ProviderRef earlier = new ProviderRef("urn:li:share:1", null);
        events.reconciled(id, WS, 2, ReconciliationResult.FOUND, ReconciliationSource.PROVIDER_DUPLICATE_SIGNAL,
                earlier, "LinkedIn refused a duplicate of urn:li:share:1", T0.plusSeconds(72));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(view.providerRef()).isEqualTo(earlier);
        assertThat(view.attempts().get(1).outcome()).isEqualTo(AttemptOutcome.FAILED);
        assertThat(view.attempts().get(1).finishedAt()).isEqualTo(T0.plusSeconds(72));
    }

    @Test
    void deliveringEveryEventAgainChangesNothing() {
        everyKindOfHistory();
        List<Map<String, Object>> once = store.rows("publication_view", "publication_id");
        List<PublicationEvents.Delivery> history = events.delivered();

        events.redeliver(history);
        events.redeliver(history.subList(0, history.size() / 2));

        assertThat(once).hasSize(6);
        assertThat(store.rows("publication_view", "publication_id")).isEqualTo(once);
        countsAgreeWithTheView();
    }

    @Test
    void aLateRedeliveryOfAnEarlierEventDoesNotTurnTheViewBack() {
        PublicationId id = events.requested(WS, "entry-42", "fb-main", T0);
        events.attempted(id, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.succeeded(id, WS, 1, POST, T0.plusSeconds(2));
        List<PublicationEvents.Delivery> history = events.delivered();

        events.redeliver(List.of(history.get(1)));

        assertThat(view(id).status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(view(id).attempts()).singleElement()
                .extracting(PublicationView.Attempt::outcome).isEqualTo(AttemptOutcome.SUCCEEDED);
    }

    @Test
    void resetClearsTheViewAndARebuildGivesTheSameRows() {
        everyKindOfHistory();
        List<Map<String, Object>> live = store.rows("publication_view", "publication_id");

        projection.reset();
        assertThat(store.count("publication_view")).isZero();

        events.redeliver(events.delivered());
        assertThat(store.rows("publication_view", "publication_id")).isEqualTo(live);
        countsAgreeWithTheView();
    }

    /** As the event processor delivers: many events in one unit of work, written when it commits. */
    @Test
    void aBatchWritesTheSameRowsAsEventByEventDeliveryAndOnlyAtCommit() {
        everyKindOfHistory();
        List<Map<String, Object>> oneByOne = store.rows("publication_view", "publication_id");
        List<PublicationEvents.Delivery> history = events.delivered();
        projection.reset();

        UnitOfWork<?> batch = DefaultUnitOfWork.startAndGet(null);
        events.redeliver(history);
        assertThat(store.count("publication_view")).isZero();
        assertThat(store.count("publication_counts")).isZero();
        batch.commit();

        assertThat(store.rows("publication_view", "publication_id")).isEqualTo(oneByOne);
        countsAgreeWithTheView();
    }

    @Test
    void aBatchRedeliveringOlderEventsLeavesNewerRowsAlone() {
        everyKindOfHistory();
        List<Map<String, Object>> once = store.rows("publication_view", "publication_id");
        List<PublicationEvents.Delivery> history = events.delivered();

        UnitOfWork<?> batch = DefaultUnitOfWork.startAndGet(null);
        events.redeliver(history.subList(0, history.size() / 2));
        batch.commit();

        assertThat(store.rows("publication_view", "publication_id")).isEqualTo(once);
        countsAgreeWithTheView();
    }

    /**
     * A batch that delivers a publication's first event again with later ones, over a row that holds
     * only the first (as the live processor does after a rebuild that read the store before the
     * later events): the row moves on from the status it had, and the counts with it.
     */
    @Test
    void aBatchRedeliveringAFirstEventWithLaterOnesCountsFromTheStoredRow() {
        everyKindOfHistory();
        PublicationId id = events.requested(WS, "e-7", "fb-main", T0.plusSeconds(60));
        events.attempted(id, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(61));
        events.succeeded(id, WS, 1, POST, T0.plusSeconds(62));
        List<PublicationEvents.Delivery> history = events.delivered();
        List<Map<String, Object>> live = store.rows("publication_view", "publication_id");
        projection.reset();
        events.redeliver(history.subList(0, history.size() - 2));
        assertThat(view(id).status()).isEqualTo(PublicationStatus.REQUESTED);

        UnitOfWork<?> batch = DefaultUnitOfWork.startAndGet(null);
        events.redeliver(history.subList(history.size() - 3, history.size()));
        batch.commit();

        assertThat(store.rows("publication_view", "publication_id")).isEqualTo(live);
        countsAgreeWithTheView();
    }

    @Test
    void aBatchThatRollsBackWritesNothing() {
        PublicationId id = events.requested(WS, "entry-42", "fb-main", T0);
        UnitOfWork<?> batch = DefaultUnitOfWork.startAndGet(null);
        events.attempted(id, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.succeeded(id, WS, 1, POST, T0.plusSeconds(2));
        batch.rollback();

        assertThat(view(id).status()).isEqualTo(PublicationStatus.REQUESTED);
        countsAgreeWithTheView();
    }

    /** The publication counts, summed over their slots, are what counting the view's rows gives. */
    private void countsAgreeWithTheView() {
        List<List<Map<String, Object>>> both = store.countsAndViewCounted();
        assertThat(both.get(1)).isNotEmpty();
        assertThat(both.get(0)).isEqualTo(both.get(1));
    }

    @Test
    void aHeldPublicationShowsWhyAndTheRefusedAttemptThenResumes() {
        PublicationId id = events.requested(WS, "entry-held", "fb-main", T0);
        events.attempted(id, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.held(id, WS, "fb-main", 1, "the connection needs new credentials: expired", T0.plusSeconds(2));

        PublicationView held = view(id);
        assertThat(held.status()).isEqualTo(PublicationStatus.HELD);
        assertThat(held.heldReason()).isEqualTo("the connection needs new credentials: expired");
        assertThat(held.needsDecision()).isFalse();
        assertThat(held.attempts()).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.FAILED);
            assertThat(a.providerCode()).isEqualTo("190/463");
            assertThat(a.finishedAt()).isEqualTo(T0.plusSeconds(2));
        });

        events.released(id, WS, "fb-main", 2, T0.plusSeconds(60));
        events.attempted(id, WS, 2, AttemptTrigger.RESUMED_AFTER_REAUTH, T0.plusSeconds(61));
        events.succeeded(id, WS, 2, POST, T0.plusSeconds(62));
        PublicationView resumed = view(id);
        assertThat(resumed.status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(resumed.heldReason()).isNull();
        assertThat(resumed.attempts()).hasSize(2);
    }

    @Test
    void aPublicationHeldBeforeAnyCallHasNoAttempt() {
        PublicationId id = events.requested(WS, "entry-held-0", "fb-main", T0);
        events.held(id, WS, "fb-main", 0, "the connection needs new credentials: revoked", T0.plusSeconds(1));

        assertThat(view(id).status()).isEqualTo(PublicationStatus.HELD);
        assertThat(view(id).attempts()).isEmpty();
        assertThat(view(id).heldReason()).endsWith("revoked");
    }

    private PublicationId unknownAfterFirstAttempt() {
        PublicationId id = events.requested(WS, "entry-42", "fb-main", T0);
        events.attempted(id, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.outcomeUnknown(id, WS, 1, T0.plusSeconds(31));
        return id;
    }

    /** Six publications that between them reach every status and carry every kind of entry. */
    private void everyKindOfHistory() {
        PublicationId succeeded = events.requested(WS, "e-1", "fb-main", T0);
        events.attempted(succeeded, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.succeeded(succeeded, WS, 1, POST, T0.plusSeconds(2));

        PublicationId failed = events.requested(WS, "e-2", "fb-main", T0.plusSeconds(10));
        events.attempted(failed, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(11));
        events.failed(failed, WS, 1, FailureKind.NOT_SENT, "connect_refused", "refused", T0.plusSeconds(40),
                T0.plusSeconds(12));
        events.attempted(failed, WS, 2, AttemptTrigger.RETRY, T0.plusSeconds(40));
        events.failed(failed, WS, 2, FailureKind.REJECTED, "190", "Page access token required", null,
                T0.plusSeconds(41));

        PublicationId notExecuted = events.requested(WS, "e-3", "li-main", T0.plusSeconds(20));
        events.attempted(notExecuted, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(21));
        events.outcomeUnknown(notExecuted, WS, 1, T0.plusSeconds(51));
        events.reconciled(notExecuted, WS, 1, ReconciliationResult.NOT_FOUND, ReconciliationSource.AUTOMATIC, null,
                "nothing in the window", T0.plusSeconds(90));

        PublicationId unknown = events.requested(WS, "e-4", "li-main", T0.plusSeconds(30));
        events.attempted(unknown, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(31));
        events.outcomeUnknown(unknown, WS, 1, T0.plusSeconds(61));
        events.reconciled(unknown, WS, 1, ReconciliationResult.UNKNOWN, ReconciliationSource.AUTOMATIC, null,
                "read-back unavailable: missing r_member_social", T0.plusSeconds(91));

        PublicationId abandoned = events.requested(WS, "e-5", "fb-main", T0.plusSeconds(40));
        events.abandoned(abandoned, WS, T0.plusSeconds(45));

        events.requested(WS, "e-6", "wp-blog", T0.plusSeconds(50));
    }

    @Test
    void anUnknownCreateSentAgainWithItsKeyIsAttemptingAndNeverInTheDecisionQueue() {
        PublicationId id = events.requested(WS, "entry-42", "masto", T0);
        events.attempted(id, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.outcomeUnknown(id, WS, 1, T0.plusSeconds(31));
        events.resendDue(id, WS, 1, T0.plusSeconds(31));

        PublicationView due = view(id);
        assertThat(due.status()).isEqualTo(PublicationStatus.ATTEMPTING);
        assertThat(due.needsDecision()).isFalse();
        assertThat(due.attempts()).singleElement()
                .satisfies(a -> assertThat(a.outcome()).isEqualTo(AttemptOutcome.OUTCOME_UNKNOWN));
        assertThat(due.steps()).singleElement().satisfies(step -> {
            assertThat(step.status()).isEqualTo(PublicationView.StepStatus.PENDING);
            assertThat(step.detail()).contains("attempt 1").contains("attempt 2").contains("same key")
                    .contains("provider_key");
        });
        assertThat(decisionQueue()).isEmpty();

        events.attempted(id, WS, 2, AttemptTrigger.RESEND_SAME_KEY, T0.plusSeconds(32));
        events.succeeded(id, WS, 2, POST, T0.plusSeconds(33));
        PublicationView done = view(id);
        assertThat(done.status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(done.attempts()).extracting(PublicationView.Attempt::trigger)
                .containsExactly(AttemptTrigger.INITIAL, AttemptTrigger.RESEND_SAME_KEY);
        assertThat(decisionQueue()).isEmpty();
    }

    @Test
    void aVerifiedPostStaysSucceededAndAVanishedOneWaitsInTheQueueUntilDecided() {
        PublicationId kept = events.requested(WS, "entry-kept", "fb-main", T0);
        events.attempted(kept, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.succeeded(kept, WS, 1, POST, T0.plusSeconds(2));
        events.verified(kept, WS, POST, T0.plusSeconds(600));
        PublicationView verified = view(kept);
        assertThat(verified.status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(verified.verifiedAt()).isEqualTo(T0.plusSeconds(600));
        assertThat(verified.vanishedAt()).isNull();
        assertThat(verified.needsDecision()).isFalse();

        PublicationId gone = events.requested(WS, "entry-gone", "fb-main", T0);
        events.attempted(gone, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.succeeded(gone, WS, 1, POST, T0.plusSeconds(2));
        events.vanished(gone, WS, POST, T0.plusSeconds(600));
        PublicationView vanished = view(gone);
        assertThat(vanished.status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(vanished.vanishedAt()).isEqualTo(T0.plusSeconds(600));
        assertThat(vanished.needsDecision()).isTrue();
        assertThat(vanished.decisionReason()).contains("vanished after success").contains("(404)")
                .contains("version 4");
        assertThat(vanished.decisionStep()).isEqualTo(PublicationStep.CREATE_POST);
        assertThat(decisionQueue()).extracting(PublicationView::publicationId).containsExactly(gone);

        events.vanishDecided(gone, WS, T0.plusSeconds(700));
        assertThat(view(gone).needsDecision()).isFalse();
        assertThat(view(gone).vanishedAt()).isEqualTo(T0.plusSeconds(600));
        assertThat(decisionQueue()).isEmpty();
    }

    private List<PublicationView> decisionQueue() {
        return new DecisionQueueQueryHandler(repository).handle(new FindDecisionQueueQuery(WorkspaceId.of(WS), null,
                null, 50)).items();
    }

    private PublicationView view(PublicationId id) {
        return queries.handle(new FindPublicationQuery(WorkspaceId.of(WS), id)).orElseThrow();
    }
}
