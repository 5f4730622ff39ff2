package io.herald.query.publication;

import static io.herald.query.publication.PublicationEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.FindPublicationQuery;
import io.herald.contracts.publication.OperatorDecision;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationView;
import io.herald.contracts.publication.PublicationView.Step;
import io.herald.contracts.publication.PublicationView.StepStatus;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.query.ReadStore;
import io.herald.query.decisionqueue.DecisionQueueQueryHandler;
import io.herald.query.decisionqueue.FindDecisionQueueQuery;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The view's {@code steps}, {@code decisionStep} and the step of each reconciliation (docs/architecture.md#steps-and-step-kinds). */
class PublicationStepsViewIT {

    private static final String WS = "acme";
    private static final MediaId RED = MediaId.of("med_" + "a".repeat(64));
    private static final MediaId BLUE = MediaId.of("med_" + "b".repeat(64));
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

    private PublicationView view(PublicationId id) {
        return queries.handle(new FindPublicationQuery(WorkspaceId.of(WS), id)).orElseThrow();
    }

    private static List<String> summary(PublicationView view) {
        return view.steps().stream().map(s -> s.step().wireName() + ":" + s.status() + ":" + s.attempts()).toList();
    }

    @Test
    void aRequestPlansOneUploadPerImageThenThePostThenTheComment() {
        PublicationId id = events.requestedWithSteps(WS, "e1", List.of(RED, BLUE), "first!", T0);
        PublicationView view = view(id);
        assertThat(summary(view)).containsExactly("upload_media:PENDING:0", "upload_media:PENDING:0",
                "create_post:PENDING:0", "first_comment:PENDING:0");
        assertThat(view.steps()).extracting(Step::mediaId).containsExactly(RED, BLUE, null, null);
    }

    @Test
    void uploadsKeepThePublicationAttemptingAndThePostMakesItSucceededWhileTheCommentRuns() {
        PublicationId id = events.requestedWithSteps(WS, "e2", List.of(RED), "first!", T0);
        events.attempted(id, WS, 1, PublicationStep.UPLOAD_MEDIA, RED, T0.plusSeconds(1));
        events.outcomeUnknown(id, WS, 1, T0.plusSeconds(2));
        events.nextStepDue(id, WS, 2, PublicationStep.UPLOAD_MEDIA, T0.plusSeconds(2));
        assertThat(view(id).status()).isEqualTo(PublicationStatus.ATTEMPTING);
        assertThat(view(id).needsDecision()).isFalse();
        events.attempted(id, WS, 2, PublicationStep.UPLOAD_MEDIA, RED, T0.plusSeconds(3));
        events.succeeded(id, WS, 2, new ProviderRef("photo-1", null), T0.plusSeconds(4));
        events.nextStepDue(id, WS, 3, PublicationStep.CREATE_POST, T0.plusSeconds(4));
        assertThat(view(id).status()).isEqualTo(PublicationStatus.ATTEMPTING);
        events.attempted(id, WS, 3, PublicationStep.CREATE_POST, null, T0.plusSeconds(5));
        events.succeeded(id, WS, 3, POST, T0.plusSeconds(6));
        events.nextStepDue(id, WS, 4, PublicationStep.FIRST_COMMENT, T0.plusSeconds(6));
        events.attempted(id, WS, 4, PublicationStep.FIRST_COMMENT, null, T0.plusSeconds(7));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(view.providerRef()).isEqualTo(POST);
        assertThat(summary(view)).containsExactly("upload_media:SUCCEEDED:2", "create_post:SUCCEEDED:1",
                "first_comment:PENDING:1");
        assertThat(view.steps().get(0).providerRef().id()).isEqualTo("photo-1");
        assertThat(view.steps().get(0).attemptNos()).containsExactly(1, 2);
    }

    @Test
    void aCommentThatCannotBeReadBackNeedsADecisionAboutTheCommentWhileThePostStaysSucceeded() {
        PublicationId id = events.requestedWithSteps(WS, "e3", List.of(), "first!", T0);
        events.attempted(id, WS, 1, PublicationStep.CREATE_POST, null, T0.plusSeconds(1));
        events.succeeded(id, WS, 1, POST, T0.plusSeconds(2));
        events.nextStepDue(id, WS, 2, PublicationStep.FIRST_COMMENT, T0.plusSeconds(2));
        events.attempted(id, WS, 2, PublicationStep.FIRST_COMMENT, null, T0.plusSeconds(3));
        events.outcomeUnknown(id, WS, 2, T0.plusSeconds(4));
        assertThat(view(id).status()).isEqualTo(PublicationStatus.SUCCEEDED);
        events.reconciled(id, WS, 2, ReconciliationResult.UNKNOWN, ReconciliationSource.AUTOMATIC, null,
                "read-back unavailable: no read token", T0.plusSeconds(40));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(view.needsDecision()).isTrue();
        assertThat(view.decisionStep()).isEqualTo(PublicationStep.FIRST_COMMENT);
        assertThat(view.decisionReason()).contains("first comment");
        assertThat(view.reconciliations()).singleElement()
                .satisfies(r -> assertThat(r.step()).isEqualTo(PublicationStep.FIRST_COMMENT));
        assertThat(summary(view)).containsExactly("create_post:SUCCEEDED:1", "first_comment:OUTCOME_UNKNOWN:1");
        assertThat(view.allowedDecisions()).containsExactly(OperatorDecision.CONFIRM_PUBLISHED,
                OperatorDecision.CONFIRM_NOT_PUBLISHED, OperatorDecision.ABANDON);

        events.stepSkipped(id, WS, 2, PublicationStep.FIRST_COMMENT, T0.plusSeconds(90));
        PublicationView skipped = view(id);
        assertThat(skipped.needsDecision()).isFalse();
        assertThat(skipped.allowedDecisions()).isEmpty();
        assertThat(skipped.decisionStep()).isNull();
        assertThat(summary(skipped)).containsExactly("create_post:SUCCEEDED:1", "first_comment:SKIPPED:1");
    }

    /**
     * A post confirmed on an operator's word alone (the channel could not read it back) gets no first
     * comment until a confirmation Herald can read: the comment waits in the decision queue, where
     * the aggregate lets an operator abandon it (the post stays), and leaves it once given up.
     */
    @Test
    void aCommentWaitingForAnUnverifiedPostWaitsInTheDecisionQueueUntilAbandoned() {
        PublicationId id = events.requestedWithSteps(WS, "e6", List.of(), "first!", T0);
        events.attempted(id, WS, 1, PublicationStep.CREATE_POST, null, T0.plusSeconds(1));
        events.outcomeUnknown(id, WS, 1, T0.plusSeconds(2));
        events.reconciled(id, WS, 1, ReconciliationResult.UNKNOWN, ReconciliationSource.AUTOMATIC, null,
                "read-back unavailable: the connection cannot read", T0.plusSeconds(40));
        events.confirmedByOperator(id, WS, 1, POST, false, T0.plusSeconds(60));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(view.providerRef()).isEqualTo(POST);
        assertThat(view.needsDecision()).isTrue();
        assertThat(view.decisionStep()).isEqualTo(PublicationStep.FIRST_COMMENT);
        assertThat(view.decisionReason()).contains("confirmed without being read back",
                "first comment waits for a confirmation Herald can read", "abandon the first comment")
                .doesNotContain("re-attempt");
        assertThat(summary(view)).containsExactly("create_post:SUCCEEDED:1", "first_comment:PENDING:0");
        assertThat(view.allowedDecisions()).as("abandon the comment, or confirm the post again; never re-attempt")
                .containsExactly(OperatorDecision.CONFIRM_PUBLISHED, OperatorDecision.ABANDON);
        assertThat(queue()).containsExactly(id);

        events.stepSkipped(id, WS, 1, PublicationStep.FIRST_COMMENT, T0.plusSeconds(90));
        PublicationView skipped = view(id);
        assertThat(skipped.status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(skipped.needsDecision()).isFalse();
        assertThat(skipped.decisionStep()).isNull();
        assertThat(summary(skipped)).containsExactly("create_post:SUCCEEDED:1", "first_comment:SKIPPED:0");
        assertThat(skipped.allowedDecisions()).as("the post still stands unread: it may be confirmed again")
                .containsExactly(OperatorDecision.CONFIRM_PUBLISHED);
        assertThat(queue()).isEmpty();
    }

    /** Confirmed again with a reference read back, the comment is due and nothing waits for an operator. */
    @Test
    void aConfirmationReadBackEndsTheWaitAndTheCommentIsDue() {
        PublicationId id = events.requestedWithSteps(WS, "e7", List.of(), "first!", T0);
        events.attempted(id, WS, 1, PublicationStep.CREATE_POST, null, T0.plusSeconds(1));
        events.outcomeUnknown(id, WS, 1, T0.plusSeconds(2));
        events.confirmedByOperator(id, WS, 1, POST, false, T0.plusSeconds(60));
        assertThat(queue()).containsExactly(id);

        events.confirmedByOperator(id, WS, 1, POST, true, T0.plusSeconds(120));
        events.nextStepDue(id, WS, 2, PublicationStep.FIRST_COMMENT, T0.plusSeconds(120));
        PublicationView view = view(id);
        assertThat(view.needsDecision()).isFalse();
        assertThat(summary(view)).containsExactly("create_post:SUCCEEDED:1", "first_comment:PENDING:0");
        assertThat(view.allowedDecisions()).isEmpty();
        assertThat(queue()).isEmpty();

        // a post without a first comment, confirmed unverified, has nothing waiting on it
        PublicationId plain = events.requested(WS, "e8", "fb-main", T0);
        events.attempted(plain, WS, 1, io.herald.contracts.publication.AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.outcomeUnknown(plain, WS, 1, T0.plusSeconds(2));
        events.confirmedByOperator(plain, WS, 1, POST, false, T0.plusSeconds(60));
        assertThat(view(plain).needsDecision()).isFalse();
        assertThat(view(plain).allowedDecisions()).containsExactly(OperatorDecision.CONFIRM_PUBLISHED);
        assertThat(queue()).isEmpty();
    }

    private List<PublicationId> queue() {
        return new DecisionQueueQueryHandler(repository).handle(new FindDecisionQueueQuery(WorkspaceId.of(WS), null,
                null, 0)).items().stream().map(PublicationView::publicationId).toList();
    }

    /**
     * A first comment that failed leaves the publication SUCCEEDED, yet the view lists the decisions the
     * aggregate accepts about the comment: confirm published, re-attempt or abandon it.
     */
    @Test
    void aFailedCommentListsTheDecisionsAboutTheCommentWhileThePostStaysSucceeded() {
        PublicationId id = events.requestedWithSteps(WS, "e9", List.of(), "first!", T0);
        events.attempted(id, WS, 1, PublicationStep.CREATE_POST, null, T0.plusSeconds(1));
        events.succeeded(id, WS, 1, POST, T0.plusSeconds(2));
        assertThat(view(id).allowedDecisions()).isEmpty();
        events.nextStepDue(id, WS, 2, PublicationStep.FIRST_COMMENT, T0.plusSeconds(2));
        events.attempted(id, WS, 2, PublicationStep.FIRST_COMMENT, null, T0.plusSeconds(3));
        events.failed(id, WS, 2, FailureKind.REJECTED, "100", "(#100) comment rejected", null, T0.plusSeconds(4));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.SUCCEEDED);
        assertThat(view.decisionStep()).isEqualTo(PublicationStep.FIRST_COMMENT);
        assertThat(view.allowedDecisions()).containsExactly(OperatorDecision.CONFIRM_PUBLISHED,
                OperatorDecision.REATTEMPT, OperatorDecision.ABANDON);
    }

    @Test
    void aRejectedImageFailsItsUploadStepWithTheProvidersReason() {
        PublicationId id = events.requestedWithSteps(WS, "e4", List.of(RED), null, T0);
        events.attempted(id, WS, 1, PublicationStep.UPLOAD_MEDIA, RED, T0.plusSeconds(1));
        events.failed(id, WS, 1, FailureKind.REJECTED, "324", "(#324) Missing or invalid image file", null,
                T0.plusSeconds(2));

        PublicationView view = view(id);
        assertThat(view.status()).isEqualTo(PublicationStatus.FAILED);
        assertThat(view.decisionStep()).isEqualTo(PublicationStep.UPLOAD_MEDIA);
        assertThat(view.steps().get(0).status()).isEqualTo(StepStatus.FAILED);
        assertThat(view.steps().get(0).detail()).contains("Missing or invalid image file");
        assertThat(view.steps().get(1).status()).isEqualTo(StepStatus.PENDING);
        assertThat(view.allowedDecisions()).containsExactly(OperatorDecision.CONFIRM_PUBLISHED,
                OperatorDecision.REATTEMPT, OperatorDecision.ABANDON);
    }

    @Test
    void aTextPostHasTheSingleCreateStepAndARedeliveryChangesNothing() {
        PublicationId id = events.requested(WS, "e5", "fb-main", T0);
        events.attempted(id, WS, 1, io.herald.contracts.publication.AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.succeeded(id, WS, 1, POST, T0.plusSeconds(2));
        PublicationView once = view(id);
        events.redeliver(events.delivered());
        assertThat(view(id)).isEqualTo(once);
        assertThat(summary(once)).containsExactly("create_post:SUCCEEDED:1");
    }
}
