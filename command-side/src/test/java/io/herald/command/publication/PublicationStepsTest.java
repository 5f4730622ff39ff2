package io.herald.command.publication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.axonframework.test.matchers.Matchers.predicate;

import io.herald.command.health.ConnectionHealth;
import io.herald.adapters.port.ChannelConnection;
import io.herald.command.publishing.AutoReattemptPolicy;
import io.herald.command.publishing.ConnectionThrottle;
import io.herald.command.publishing.PublishingProperties;
import io.herald.command.publishing.RetryPolicy;
import io.herald.command.publishing.SameKeyResendPolicy;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptDecision.Verdict;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.DecidePublicationCommand;
import io.herald.contracts.publication.ExpireAttemptCommand;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.OperatorDecision;
import io.herald.contracts.publication.OperatorDecisionRule;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationStepSkippedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.contracts.publication.StartReadBackCommand;
import io.herald.contracts.publication.UnknownCause;
import io.herald.contracts.publication.UploadedMedia;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The steps of a publication with images and a first comment (docs/architecture.md#steps-and-step-kinds). */
class PublicationStepsTest {

    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("fb-main");
    private static final PublicationId ID = IdempotencyKeys.publicationId(WS, "entry-7", 1, CHANNEL,
            PublicationAction.PUBLISH);
    private static final MediaId RED = MediaId.of("med_" + "a".repeat(64));
    private static final MediaId BLUE = MediaId.of("med_" + "b".repeat(64));
    private static final Content CONTENT = new Content(null, "Two images", null,
            List.of(new ContentMedia(RED, "a red square"), new ContentMedia(BLUE, "a blue square")),
            "First!");
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final AttemptTrace TRACE = new AttemptTrace("fp", "page-1", T0, true, 200, null, null, 50);
    private static final ProviderRef RED_PHOTO = new ProviderRef("9001", null);
    private static final ProviderRef BLUE_PHOTO = new ProviderRef("9002", null);
    private static final ProviderRef POST = new ProviderRef("page-1_777", "https://www.facebook.com/page-1_777");

    private FixtureConfiguration<Publication> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Publication.class);
        fixture.registerInjectableResource(new ConnectionThrottle());
        fixture.registerInjectableResource(ConnectionHealth.allActive());
        fixture.registerInjectableResource(new ScriptedEntryOrder());
        fixture.registerInjectableResource(new AutoReattemptPolicy((ws, ch) -> Optional.of(new ChannelConnection(
                ws, ch, ChannelType.of("facebook"), null, null, false))));
        // three requests that never left may be retried: two unknown uploads are uploaded again, the third is not
        fixture.registerInjectableResource(SameKeyResendPolicy.never());
        fixture.registerInjectableResource(new RetryPolicy(new PublishingProperties(null, null, null,
                new PublishingProperties.Retry(3, 8, Duration.ofSeconds(2), 2.0, 0.0, Duration.ofMinutes(1), null), null)));
    }

    private static PublicationRequestedEvent requested() {
        return new PublicationRequestedEvent(ID, WS, "entry-7", 1, CHANNEL, ChannelType.of("facebook"),
                PublicationAction.PUBLISH, CONTENT, CONTENT.hash(), null, T0, "calendar");
    }

    private static PublicationAttemptedEvent attempted(int n, AttemptTrigger trigger, PublicationStep step,
                                                       MediaId media) {
        Instant at = T0.plusSeconds(n);
        return new PublicationAttemptedEvent(ID, WS, CHANNEL, n, trigger, ID.value(), CONTENT.hash(), at,
                at.plus(TIMEOUT), null, step, media);
    }

    private static PublicationSucceededEvent succeeded(int n, ProviderRef ref) {
        return new PublicationSucceededEvent(ID, WS, n, ref, TRACE, T0.plusSeconds(n));
    }

    private static PublicationNextStepDueEvent due(int n, PublicationStep step) {
        return new PublicationNextStepDueEvent(ID, WS, n, step, T0.plusSeconds(n - 1));
    }

    private static PublicationOutcomeUnknownEvent unknown(int n) {
        return new PublicationOutcomeUnknownEvent(ID, WS, n, UnknownCause.READ_TIMEOUT, "read timed out",
                AttemptTrace.nothingCameBack("page-1", T0), T0.plusSeconds(n));
    }

    private static StartAttemptCommand start(int n, AttemptTrigger trigger, boolean readDone) {
        return new StartAttemptCommand(ID, n, trigger, T0.plusSeconds(n), TIMEOUT, readDone);
    }

    /** Both uploads recorded, the post created: attempts 1-3. */
    private static Object[] postedWithBothImages() {
        return new Object[] {requested(),
                attempted(1, AttemptTrigger.INITIAL, PublicationStep.UPLOAD_MEDIA, RED), succeeded(1, RED_PHOTO),
                due(2, PublicationStep.UPLOAD_MEDIA),
                attempted(2, AttemptTrigger.NEXT_STEP, PublicationStep.UPLOAD_MEDIA, BLUE), succeeded(2, BLUE_PHOTO),
                due(3, PublicationStep.CREATE_POST),
                attempted(3, AttemptTrigger.NEXT_STEP, PublicationStep.CREATE_POST, null), succeeded(3, POST),
                due(4, PublicationStep.FIRST_COMMENT)};
    }

    @Test
    void uploadsTheFirstImageBeforeAnythingElse() {
        fixture.given(requested())
                .when(start(1, AttemptTrigger.INITIAL, false))
                .expectEvents(attempted(1, AttemptTrigger.INITIAL, PublicationStep.UPLOAD_MEDIA, RED))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.START && d.step() == PublicationStep.UPLOAD_MEDIA
                        && RED.equals(d.mediaId())));
    }

    @Test
    void aRecordedUploadMakesTheNextUploadDue() {
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, PublicationStep.UPLOAD_MEDIA, RED))
                .when(new RecordAttemptSucceededCommand(ID, 1, RED_PHOTO, TRACE, T0.plusSeconds(1)))
                .expectEvents(succeeded(1, RED_PHOTO), due(2, PublicationStep.UPLOAD_MEDIA));
    }

    @Test
    void thePostAttachesTheRecordedUploadsInTheContentsOrder() {
        fixture.given(requested(),
                        attempted(1, AttemptTrigger.INITIAL, PublicationStep.UPLOAD_MEDIA, RED),
                        succeeded(1, RED_PHOTO), due(2, PublicationStep.UPLOAD_MEDIA),
                        attempted(2, AttemptTrigger.NEXT_STEP, PublicationStep.UPLOAD_MEDIA, BLUE),
                        succeeded(2, BLUE_PHOTO), due(3, PublicationStep.CREATE_POST))
                .when(start(3, AttemptTrigger.NEXT_STEP, false))
                .expectEvents(attempted(3, AttemptTrigger.NEXT_STEP, PublicationStep.CREATE_POST, null))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.step() == PublicationStep.CREATE_POST && d.uploads().equals(List.of(
                                new UploadedMedia(RED, "a red square", RED_PHOTO),
                                new UploadedMedia(BLUE, "a blue square", BLUE_PHOTO)))));
    }

    @Test
    void anUnknownUploadIsUploadedAgainWithoutAReadBack() {
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, PublicationStep.UPLOAD_MEDIA, RED))
                .when(new RecordAttemptOutcomeUnknownCommand(ID, 1, UnknownCause.READ_TIMEOUT, "read timed out",
                        AttemptTrace.nothingCameBack("page-1", T0), T0.plusSeconds(1)))
                .expectEvents(unknown(1), due(2, PublicationStep.UPLOAD_MEDIA));
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, PublicationStep.UPLOAD_MEDIA, RED),
                        unknown(1), due(2, PublicationStep.UPLOAD_MEDIA))
                .when(start(2, AttemptTrigger.NEXT_STEP, false))
                .expectEvents(attempted(2, AttemptTrigger.NEXT_STEP, PublicationStep.UPLOAD_MEDIA, RED));
    }

    @Test
    void anUploadThatStaysUnknownPastTheRetryPolicyFailsForAnOperator() {
        fixture.given(requested(),
                        attempted(1, AttemptTrigger.INITIAL, PublicationStep.UPLOAD_MEDIA, RED), unknown(1),
                        due(2, PublicationStep.UPLOAD_MEDIA),
                        attempted(2, AttemptTrigger.NEXT_STEP, PublicationStep.UPLOAD_MEDIA, RED), unknown(2),
                        due(3, PublicationStep.UPLOAD_MEDIA),
                        attempted(3, AttemptTrigger.NEXT_STEP, PublicationStep.UPLOAD_MEDIA, RED))
                .when(new ExpireAttemptCommand(ID, 3))
                .expectEventsMatching(org.axonframework.test.matchers.Matchers.payloadsMatching(
                        org.axonframework.test.matchers.Matchers.exactSequenceOf(
                                predicate(e -> e instanceof PublicationOutcomeUnknownEvent u && u.attemptNo() == 3),
                                predicate(e -> e instanceof PublicationFailedEvent f && f.attemptNo() == 3
                                        && f.kind() == FailureKind.REJECTED && f.retryAt() == null
                                        && "upload_outcome_unknown".equals(f.errorCode())),
                                org.axonframework.test.matchers.Matchers.andNoMore())));
    }

    @Test
    void afterThePostItsFirstCommentStartsWhileThePublicationStaysSucceeded() {
        fixture.given(postedWithBothImages())
                .when(start(4, AttemptTrigger.NEXT_STEP, false))
                .expectEvents(attempted(4, AttemptTrigger.NEXT_STEP, PublicationStep.FIRST_COMMENT, null))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.step() == PublicationStep.FIRST_COMMENT && POST.equals(d.postRef())));
    }

    @Test
    void aCommentThatSucceededIsNeverWrittenAgain() {
        Object[] history = append(postedWithBothImages(),
                attempted(4, AttemptTrigger.NEXT_STEP, PublicationStep.FIRST_COMMENT, null),
                succeeded(4, new ProviderRef("777_1", null)));
        fixture.given(history)
                .when(start(5, AttemptTrigger.OPERATOR_REATTEMPT, true))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED));
    }

    @Test
    void anUnknownCommentIsReadBackAmongThePostsComments() {
        Object[] history = append(postedWithBothImages(),
                attempted(4, AttemptTrigger.NEXT_STEP, PublicationStep.FIRST_COMMENT, null), unknown(4));
        fixture.given(history)
                .when(new StartReadBackCommand(ID, 4))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof ReadBackLicence l
                        && l.step() == PublicationStep.FIRST_COMMENT && POST.equals(l.postRef())
                        && l.attemptNo() == 4));
        fixture.given(history)
                .when(new RecordReconciliationCommand(ID, 4, ReconciliationResult.FOUND,
                        new ProviderRef("777_1", null), "one comment with the text", T0.plusSeconds(60)))
                .expectEvents(new PublicationReconciledEvent(ID, WS, 4, ReconciliationResult.FOUND,
                        ReconciliationSource.AUTOMATIC, new ProviderRef("777_1", null), "one comment with the text",
                        null, null, T0.plusSeconds(60)));
    }

    @Test
    void aCommentNotFoundIsReattemptedByAnOperatorAfterReadingFirst() {
        Object[] history = append(postedWithBothImages(),
                attempted(4, AttemptTrigger.NEXT_STEP, PublicationStep.FIRST_COMMENT, null), unknown(4),
                new PublicationReconciledEvent(ID, WS, 4, ReconciliationResult.NOT_FOUND,
                        ReconciliationSource.AUTOMATIC, null, "no comment", null, null, T0.plusSeconds(60)));
        fixture.given(history)
                .when(new DecidePublicationCommand(ID, WS, OperatorDecision.REATTEMPT, null, "olga", null,
                        T0.plusSeconds(90)))
                .expectEvents(new PublicationNextStepDueEvent(ID, WS, 5, PublicationStep.FIRST_COMMENT,
                        T0.plusSeconds(90)));
        Object[] reattempted = append(history, new PublicationNextStepDueEvent(ID, WS, 5,
                PublicationStep.FIRST_COMMENT, T0.plusSeconds(90)));
        fixture.given(reattempted)
                .when(start(5, AttemptTrigger.NEXT_STEP, false))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.READ_FIRST && d.readFirst().step() == PublicationStep.FIRST_COMMENT));
        fixture.given(reattempted)
                .when(start(5, AttemptTrigger.NEXT_STEP, true))
                .expectEvents(attempted(5, AttemptTrigger.NEXT_STEP, PublicationStep.FIRST_COMMENT, null));
    }

    @Test
    void aReattemptWhileTheCommentsOutcomeIsUnknownIsRefused() {
        fixture.given(append(postedWithBothImages(),
                        attempted(4, AttemptTrigger.NEXT_STEP, PublicationStep.FIRST_COMMENT, null), unknown(4)))
                .when(new DecidePublicationCommand(ID, WS, OperatorDecision.REATTEMPT, null, "olga", null,
                        T0.plusSeconds(90)))
                .expectNoEvents()
                .expectException(HeraldRejection.class);
    }

    /**
     * The aggregate accepts exactly the decisions {@link OperatorDecisionRule} lists for a case (what the
     * view shows as {@code allowedDecisions}), for the first comment as for the post.
     */
    @Test
    void eachCaseAcceptsExactlyTheDecisionsTheRuleLists() {
        Object[] commentUnknown = append(postedWithBothImages(),
                attempted(4, AttemptTrigger.NEXT_STEP, PublicationStep.FIRST_COMMENT, null), unknown(4));
        acceptsExactly(commentUnknown, OperatorDecisionRule.Comment.OUTCOME_UNKNOWN, false,
                OperatorDecision.CONFIRM_PUBLISHED, OperatorDecision.CONFIRM_NOT_PUBLISHED, OperatorDecision.ABANDON);
        Object[] commentWaitsOnUnverifiedPost = {requested(),
                attempted(1, AttemptTrigger.INITIAL, PublicationStep.UPLOAD_MEDIA, RED), succeeded(1, RED_PHOTO),
                due(2, PublicationStep.UPLOAD_MEDIA),
                attempted(2, AttemptTrigger.NEXT_STEP, PublicationStep.UPLOAD_MEDIA, BLUE), succeeded(2, BLUE_PHOTO),
                due(3, PublicationStep.CREATE_POST),
                attempted(3, AttemptTrigger.NEXT_STEP, PublicationStep.CREATE_POST, null), unknown(3),
                new PublicationReconciledEvent(ID, WS, 3, ReconciliationResult.FOUND, ReconciliationSource.OPERATOR,
                        POST, "confirmed published by olga; the channel could not read the post back", "olga", null,
                        T0.plusSeconds(60), false)};
        acceptsExactly(commentWaitsOnUnverifiedPost, OperatorDecisionRule.Comment.WAITS_ON_UNVERIFIED_POST, true,
                OperatorDecision.CONFIRM_PUBLISHED, OperatorDecision.ABANDON);
        acceptsExactly(postedWithBothImages(), OperatorDecisionRule.Comment.NONE, false);
    }

    private void acceptsExactly(Object[] history, OperatorDecisionRule.Comment comment, boolean postUnverified,
                                OperatorDecision... accepted) {
        Set<OperatorDecision> expected = Set.of(accepted);
        assertThat(OperatorDecisionRule.allowed(PublicationStatus.SUCCEEDED, false, comment, postUnverified))
                .containsExactlyInAnyOrderElementsOf(expected);
        for (OperatorDecision decision : OperatorDecision.values()) {
            var result = fixture.given(history).when(new DecidePublicationCommand(ID, WS, decision, POST, "olga", null,
                    T0.plusSeconds(90), true));
            if (expected.contains(decision)) {
                result.expectSuccessfulHandlerExecution();
            } else {
                result.expectNoEvents().expectException(HeraldRejection.class);
            }
        }
    }

    @Test
    void abandoningTheCommentSkipsItAndLeavesThePost() {
        fixture.given(append(postedWithBothImages(),
                        attempted(4, AttemptTrigger.NEXT_STEP, PublicationStep.FIRST_COMMENT, null), unknown(4)))
                .when(new DecidePublicationCommand(ID, WS, OperatorDecision.ABANDON, null, "olga", "not needed",
                        T0.plusSeconds(90)))
                .expectEvents(new PublicationStepSkippedEvent(ID, WS, 4, PublicationStep.FIRST_COMMENT, "olga",
                        "not needed", T0.plusSeconds(90)));
    }

    /**
     * A post confirmed on an operator's word alone (the channel could not read it) gets no first
     * comment until a confirmation Herald can read; where the channel can never read (LinkedIn
     * without its read scope), an operator gives the comment up, or nothing would ever end it.
     */
    @Test
    void aCommentWaitingForAnUnverifiedPostIsGivenUpByAnOperator() {
        Object[] unverified = {requested(),
                attempted(1, AttemptTrigger.INITIAL, PublicationStep.UPLOAD_MEDIA, RED), succeeded(1, RED_PHOTO),
                due(2, PublicationStep.UPLOAD_MEDIA),
                attempted(2, AttemptTrigger.NEXT_STEP, PublicationStep.UPLOAD_MEDIA, BLUE), succeeded(2, BLUE_PHOTO),
                due(3, PublicationStep.CREATE_POST),
                attempted(3, AttemptTrigger.NEXT_STEP, PublicationStep.CREATE_POST, null), unknown(3),
                new PublicationReconciledEvent(ID, WS, 3, ReconciliationResult.FOUND, ReconciliationSource.OPERATOR,
                        POST, "confirmed published by olga; the channel could not read the post back", "olga", null,
                        T0.plusSeconds(60), false)};
        fixture.given(unverified)
                .when(new DecidePublicationCommand(ID, WS, OperatorDecision.ABANDON, null, "olga", "cannot read",
                        T0.plusSeconds(90)))
                .expectEvents(new PublicationStepSkippedEvent(ID, WS, 3, PublicationStep.FIRST_COMMENT, "olga",
                        "cannot read", T0.plusSeconds(90)));
        // the comment is still not written on the operator's word
        fixture.given(unverified)
                .when(new DecidePublicationCommand(ID, WS, OperatorDecision.REATTEMPT, null, "olga", null,
                        T0.plusSeconds(90)))
                .expectNoEvents()
                .expectException(HeraldRejection.class);
    }

    @Test
    void aReattemptOfThePostAfterNotFoundReusesTheRecordedUploads() {
        fixture.given(requested(),
                        attempted(1, AttemptTrigger.INITIAL, PublicationStep.UPLOAD_MEDIA, RED),
                        succeeded(1, RED_PHOTO), due(2, PublicationStep.UPLOAD_MEDIA),
                        attempted(2, AttemptTrigger.NEXT_STEP, PublicationStep.UPLOAD_MEDIA, BLUE),
                        succeeded(2, BLUE_PHOTO), due(3, PublicationStep.CREATE_POST),
                        attempted(3, AttemptTrigger.NEXT_STEP, PublicationStep.CREATE_POST, null), unknown(3),
                        new PublicationReconciledEvent(ID, WS, 3, ReconciliationResult.NOT_FOUND,
                                ReconciliationSource.OPERATOR, null, "not there", "olga", null, T0.plusSeconds(60)),
                        new io.herald.contracts.publication.PublicationExecutionRequestedEvent(ID, WS,
                                AttemptTrigger.OPERATOR_REATTEMPT, "olga", null, T0.plusSeconds(70), 4))
                .when(start(4, AttemptTrigger.OPERATOR_REATTEMPT, true))
                .expectEvents(attempted(4, AttemptTrigger.OPERATOR_REATTEMPT, PublicationStep.CREATE_POST, null))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.uploads().size() == 2 && d.uploads().get(0).providerRef().equals(RED_PHOTO)));
    }

    private static Object[] append(Object[] history, Object... more) {
        Object[] all = java.util.Arrays.copyOf(history, history.length + more.length);
        System.arraycopy(more, 0, all, history.length, more.length);
        return all;
    }
}
