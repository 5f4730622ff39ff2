package io.herald.command.publication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.axonframework.test.matchers.Matchers.predicate;

import io.herald.adapters.port.ChannelConnection;
import io.herald.command.health.ConnectionHealth;
import io.herald.command.publishing.AutoReattemptPolicy;
import io.herald.command.publishing.ConnectionThrottle;
import io.herald.command.publishing.PublishingProperties;
import io.herald.command.publishing.RetryPolicy;
import io.herald.command.publishing.SameKeyResendPolicy;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.ErrorCode;
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
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.contracts.publication.StartReadBackCommand;
import io.herald.contracts.publication.StepClass;
import io.herald.contracts.publication.StepRole;
import io.herald.contracts.publication.StepScope;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.RecordAttemptFailedCommand;
import io.herald.contracts.publication.UploadedMedia;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A step that prepares the post once for the whole post (a container the provider builds from the
 * caption and the images' public addresses) and a post step that publishes it: planned once, its
 * reference on record before the publish is attempted and handed to it, read back through it, and
 * forgotten where it can no longer be published.
 */
class ContainerStepsTest {

    static final PublicationStep CREATE_BOX = PublicationStep.declare("create_box", StepClass.REPEATABLE, false,
            StepRole.PREPARES_POST, StepScope.PER_POST, "create box");
    static final PublicationStep PUBLISH_BOX = PublicationStep.declare("publish_box", StepClass.ONCE_ONLY, true,
            StepRole.MAKES_POST, "publish box");

    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("boxes");
    private static final ChannelType TYPE = ChannelType.of("boxes");
    private static final PublicationId ID = IdempotencyKeys.publicationId(WS, "entry-4", 1, CHANNEL,
            PublicationAction.PUBLISH);
    private static final MediaId RED = MediaId.of("med_" + "a".repeat(64));
    private static final MediaId BLUE = MediaId.of("med_" + "b".repeat(64));
    private static final Content CAROUSEL = new Content(null, "Two squares", null,
            List.of(new ContentMedia(RED, "red"), new ContentMedia(BLUE, null)), null);
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final AttemptTrace TRACE = new AttemptTrace("fp", "acct", T0, true, 200, null, null, 50);
    private static final ProviderRef BOX = new ProviderRef("box-1", null);
    private static final ProviderRef POST = new ProviderRef("post-1", "https://example.org/p/1");

    private FixtureConfiguration<Publication> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Publication.class);
        fixture.registerInjectableResource(new ConnectionThrottle());
        fixture.registerInjectableResource(ConnectionHealth.allActive());
        fixture.registerInjectableResource(new ScriptedEntryOrder());
        fixture.registerInjectableResource(SameKeyResendPolicy.never());
        fixture.registerInjectableResource(new AutoReattemptPolicy((ws, ch) -> Optional.of(new ChannelConnection(
                ws, ch, TYPE, null, null, false))));
        fixture.registerInjectableResource(new RetryPolicy(new PublishingProperties(null, null, null,
                new PublishingProperties.Retry(3, 8, Duration.ofSeconds(2), 2.0, 0.0, Duration.ofMinutes(1), null), null)));
    }

    private static PublicationRequestedEvent requested(Content content) {
        return new PublicationRequestedEvent(ID, WS, "entry-4", 1, CHANNEL, TYPE, PublicationAction.PUBLISH, content,
                content.hash(), null, T0, "calendar", List.of(CREATE_BOX, PUBLISH_BOX));
    }

    private static PublicationAttemptedEvent attempted(int n, AttemptTrigger trigger, PublicationStep step) {
        Instant at = T0.plusSeconds(n);
        return new PublicationAttemptedEvent(ID, WS, CHANNEL, n, trigger, ID.value(), CAROUSEL.hash(), at,
                at.plus(TIMEOUT), null, step, null);
    }

    private static StartAttemptCommand start(int n, AttemptTrigger trigger) {
        return new StartAttemptCommand(ID, n, trigger, T0.plusSeconds(n), TIMEOUT, false);
    }

    private static PublicationNextStepDueEvent due(int n, PublicationStep step, Instant at) {
        return new PublicationNextStepDueEvent(ID, WS, n, step, at);
    }

    /** The box created (attempt 1) and its publish attempted (attempt 2). */
    private static Object[] publishing() {
        return new Object[] {requested(CAROUSEL), attempted(1, AttemptTrigger.INITIAL, CREATE_BOX),
                new PublicationSucceededEvent(ID, WS, 1, BOX, TRACE, T0.plusSeconds(1)),
                due(2, PUBLISH_BOX, T0.plusSeconds(1)), attempted(2, AttemptTrigger.NEXT_STEP, PUBLISH_BOX)};
    }

    private static RecordAttemptFailedCommand failure(int n, FailureKind kind, String code, Duration delay) {
        return new RecordAttemptFailedCommand(ID, n, kind, code, "no", TRACE, delay, T0.plusSeconds(10L * n));
    }

    @Test
    void aPerPostStepIsPlannedOnceForACarouselAndForATextPost() {
        assertThat(PublicationStep.plan(PublicationAction.PUBLISH, CAROUSEL, List.of(CREATE_BOX, PUBLISH_BOX)))
                .extracting(PublicationStep.Planned::kind).containsExactly(CREATE_BOX, PUBLISH_BOX);
        Content text = new Content(null, "Only words", null, List.of(), null);
        assertThat(PublicationStep.plan(PublicationAction.PUBLISH, text, List.of(CREATE_BOX, PUBLISH_BOX)))
                .extracting(PublicationStep.Planned::kind).containsExactly(CREATE_BOX, PUBLISH_BOX);
        assertThat(CREATE_BOX.preparesOncePerPost()).isTrue();
        assertThat(PublicationStep.UPLOAD_MEDIA.preparesOncePerPost()).isFalse();
        assertThatThrownBy(() -> PublicationStep.declare("create_box", StepClass.REPEATABLE, false,
                StepRole.PREPARES_POST, "create box")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theContainerIsCreatedFirstWithoutAnImageOfItsOwn() {
        fixture.given(requested(CAROUSEL))
                .when(start(1, AttemptTrigger.INITIAL))
                .expectEvents(attempted(1, AttemptTrigger.INITIAL, CREATE_BOX))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.START && d.step() == CREATE_BOX && d.mediaId() == null));
    }

    @Test
    void theContainerIsOnRecordBeforeThePublishAndThePublishReceivesIt() {
        fixture.given(requested(CAROUSEL), attempted(1, AttemptTrigger.INITIAL, CREATE_BOX))
                .when(new RecordAttemptSucceededCommand(ID, 1, BOX, TRACE, T0.plusSeconds(1)))
                .expectEvents(new PublicationSucceededEvent(ID, WS, 1, BOX, TRACE, T0.plusSeconds(1)),
                        due(2, PUBLISH_BOX, T0.plusSeconds(1)));
        fixture.given(requested(CAROUSEL), attempted(1, AttemptTrigger.INITIAL, CREATE_BOX),
                        new PublicationSucceededEvent(ID, WS, 1, BOX, TRACE, T0.plusSeconds(1)),
                        due(2, PUBLISH_BOX, T0.plusSeconds(1)))
                .when(start(2, AttemptTrigger.NEXT_STEP))
                .expectEvents(attempted(2, AttemptTrigger.NEXT_STEP, PUBLISH_BOX))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.step() == PUBLISH_BOX
                        && d.uploads().equals(List.of(new UploadedMedia(null, null, BOX)))));
    }

    @Test
    void anUnknownPublishIsReadBackThroughItsContainer() {
        Object[] unknown = append(publishing(), new PublicationOutcomeUnknownEvent(ID, WS, 2,
                UnknownCause.READ_TIMEOUT, "read timed out", AttemptTrace.nothingCameBack("acct", T0),
                T0.plusSeconds(3)));
        fixture.given(unknown)
                .when(new StartReadBackCommand(ID, 2))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof ReadBackLicence l
                        && l.step() == PUBLISH_BOX && BOX.equals(l.prepared())));
        // not found: a re-attempt publishes the same container (read once more first, as any once-only step)
        Object[] notFound = append(unknown, new PublicationReconciledEvent(ID, WS, 2, ReconciliationResult.NOT_FOUND,
                        ReconciliationSource.AUTOMATIC, null, "container FINISHED", null, null, T0.plusSeconds(60)),
                new PublicationExecutionRequestedEvent(ID, WS, AttemptTrigger.OPERATOR_REATTEMPT, "olga", null,
                        T0.plusSeconds(70), 3));
        fixture.given(notFound)
                .when(new StartAttemptCommand(ID, 3, AttemptTrigger.OPERATOR_REATTEMPT, T0.plusSeconds(3), TIMEOUT,
                        true))
                .expectEvents(attempted(3, AttemptTrigger.OPERATOR_REATTEMPT, PUBLISH_BOX))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.uploads().get(0).providerRef().equals(BOX)));
    }

    @Test
    void aContainerNotReadyIsPolledAtTheProvidersPaceBeyondTheNotSentBudget() {
        Object[] history = publishing();
        for (int n = 2; n < 7; n++) {
            PublicationFailedEvent failed = new PublicationFailedEvent(ID, WS, n, FailureKind.NOT_READY,
                    "container_not_ready", "no", TRACE, T0.plusSeconds(10L * n + 5), T0.plusSeconds(10L * n));
            history = append(history, failed, attempted(n + 1, AttemptTrigger.RETRY, PUBLISH_BOX));
        }
        fixture.given(history)
                .when(failure(7, FailureKind.NOT_READY, "container_not_ready", Duration.ofSeconds(5)))
                .expectEvents(new PublicationFailedEvent(ID, WS, 7, FailureKind.NOT_READY, "container_not_ready", "no",
                        TRACE, T0.plusSeconds(75), T0.plusSeconds(70)));
        // still the same container: the retry publishes it
        fixture.given(append(history, new PublicationFailedEvent(ID, WS, 7, FailureKind.NOT_READY,
                        "container_not_ready", "no", TRACE, T0.plusSeconds(75), T0.plusSeconds(70))))
                .when(start(8, AttemptTrigger.RETRY))
                .expectEvents(attempted(8, AttemptTrigger.RETRY, PUBLISH_BOX));
    }

    @Test
    void aNewContainerIsPolledWithANotReadyBudgetOfItsOwn() {
        // the first container is still processing at every one of the budget's 60 polls
        Object[] history = publishing();
        for (int n = 2; n < 61; n++) {
            history = append(history, new PublicationFailedEvent(ID, WS, n, FailureKind.NOT_READY,
                    "container_not_ready", "no", TRACE, T0.plusSeconds(10L * n + 5), T0.plusSeconds(10L * n)),
                    attempted(n + 1, AttemptTrigger.RETRY, PUBLISH_BOX));
        }
        PublicationFailedEvent spent = new PublicationFailedEvent(ID, WS, 61, FailureKind.NOT_READY,
                "container_not_ready", "no", TRACE, null, T0.plusSeconds(610));
        fixture.given(history)
                .when(failure(61, FailureKind.NOT_READY, "container_not_ready", Duration.ofSeconds(5)))
                .expectEvents(spent);
        // the operator's re-attempt makes a new container; its polls are not counted against the old one's
        ProviderRef second = new ProviderRef("box-2", null);
        history = append(history, spent, new PublicationExecutionRequestedEvent(ID, WS,
                        AttemptTrigger.OPERATOR_REATTEMPT, "olga", null, T0.plusSeconds(620), 62),
                attempted(62, AttemptTrigger.OPERATOR_REATTEMPT, CREATE_BOX),
                new PublicationSucceededEvent(ID, WS, 62, second, TRACE, T0.plusSeconds(621)),
                due(63, PUBLISH_BOX, T0.plusSeconds(621)), attempted(63, AttemptTrigger.NEXT_STEP, PUBLISH_BOX));
        fixture.given(history)
                .when(failure(63, FailureKind.NOT_READY, "container_not_ready", Duration.ofSeconds(5)))
                .expectEvents(new PublicationFailedEvent(ID, WS, 63, FailureKind.NOT_READY, "container_not_ready",
                        "no", TRACE, T0.plusSeconds(635), T0.plusSeconds(630)));
    }

    @Test
    void anExpiredContainerIsForgottenAndTheRetryCreatesANewOne() {
        Object[] expired = append(publishing(), new PublicationFailedEvent(ID, WS, 2, FailureKind.NOT_SENT,
                PublicationFailedEvent.PREPARATION_EXPIRED, "expired", TRACE, T0.plusSeconds(30), T0.plusSeconds(20)));
        fixture.given(publishing())
                .when(failure(2, FailureKind.NOT_SENT, PublicationFailedEvent.PREPARATION_EXPIRED, null))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof Instant));
        fixture.given(expired)
                .when(start(3, AttemptTrigger.RETRY))
                .expectEvents(attempted(3, AttemptTrigger.RETRY, CREATE_BOX));
    }

    @Test
    void aFinalFailureOfThePublishLeavesTheContainerUnusedForAReattempt() {
        Object[] failed = append(publishing(), new PublicationFailedEvent(ID, WS, 2, FailureKind.REJECTED,
                "container_error", "the container failed", TRACE, null, T0.plusSeconds(20)),
                new PublicationExecutionRequestedEvent(ID, WS, AttemptTrigger.EXECUTE_REQUESTED, "olga", null,
                        T0.plusSeconds(25), 3));
        fixture.given(failed)
                .when(start(3, AttemptTrigger.EXECUTE_REQUESTED))
                .expectEvents(attempted(3, AttemptTrigger.EXECUTE_REQUESTED, CREATE_BOX));
    }

    @Test
    void theContainersNoteIsRecordedWithItsSuccess() {
        String note = "image converted to JPEG for Instagram: " + BLUE.value() + " (image/png)";
        fixture.given(requested(CAROUSEL), attempted(1, AttemptTrigger.INITIAL, CREATE_BOX))
                .when(new RecordAttemptSucceededCommand(ID, 1, BOX, TRACE, T0.plusSeconds(1), null, note))
                .expectEvents(new PublicationSucceededEvent(ID, WS, 1, BOX, TRACE, T0.plusSeconds(1), note),
                        due(2, PUBLISH_BOX, T0.plusSeconds(1)));
    }

    @Test
    void thePublishSucceedsAsThePost() {
        fixture.given(publishing())
                .when(new RecordAttemptSucceededCommand(ID, 2, POST, TRACE, T0.plusSeconds(3)))
                .expectEvents(new PublicationSucceededEvent(ID, WS, 2, POST, TRACE, T0.plusSeconds(3)));
    }

    private static Object[] append(Object[] history, Object... more) {
        Object[] all = java.util.Arrays.copyOf(history, history.length + more.length);
        System.arraycopy(more, 0, all, history.length, more.length);
        return all;
    }
}
