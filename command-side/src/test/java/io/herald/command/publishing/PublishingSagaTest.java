package io.herald.command.publishing;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.test.saga.SagaTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PublishingSagaTest {

    private static final PublicationId ID = new PublicationId("pub_" + "a".repeat(64));
    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("fb-main");
    private static final Content CONTENT = new Content(null, "Hello", null);
    private static final PublishingProperties PROPERTIES = new PublishingProperties(null, null, null, null);
    private static final AttemptTrace TRACE = new AttemptTrace("fp", "page", null, true, 200, null, null, 3);

    /** Records what the saga asked to run; the real runner is exercised end to end elsewhere. */
    static final class RecordedAttempts implements Attempts {
        final List<AttemptPlan> plans = new ArrayList<>();

        @Override
        public void run(AttemptPlan plan) {
            plans.add(plan);
        }
    }

    private SagaTestFixture<PublishingSaga> fixture;
    private RecordedAttempts attempts;
    private Instant now;

    @BeforeEach
    void setUp() {
        fixture = new SagaTestFixture<>(PublishingSaga.class);
        attempts = new RecordedAttempts();
        fixture.registerResource(attempts);
        fixture.registerResource(PROPERTIES);
        now = fixture.currentTime();
    }

    private PublicationRequestedEvent requested(Instant scheduledAt) {
        return new PublicationRequestedEvent(ID, WS, "entry-1", 1, CHANNEL, ChannelType.FACEBOOK,
                PublicationAction.PUBLISH, CONTENT, CONTENT.hash(), scheduledAt, now, "calendar");
    }

    private PublicationAttemptedEvent attempted(int n) {
        return new PublicationAttemptedEvent(ID, WS, CHANNEL, n, AttemptTrigger.INITIAL, ID.value(), CONTENT.hash(),
                now, now.plusSeconds(120));
    }

    private PublicationFailedEvent failed(int n, FailureKind kind, Instant retryAt) {
        return new PublicationFailedEvent(ID, WS, n, kind, "code", "detail", TRACE, retryAt, now);
    }

    private PublicationOutcomeUnknownEvent unknown(int n) {
        return new PublicationOutcomeUnknownEvent(ID, WS, n, UnknownCause.READ_TIMEOUT, "timeout", TRACE, now);
    }

    private PublicationReconciledEvent reconciled(ReconciliationResult result, ReconciliationSource source) {
        return new PublicationReconciledEvent(ID, WS, 1, result, source, null, "read", null, null, now);
    }

    @Test
    void aRequestMakesTheFirstAttemptDueAtOnce() {
        fixture.givenNoPriorActivity()
                .whenPublishingA(requested(null))
                .expectActiveSagas(1)
                .expectScheduledDeadlineWithName(PROPERTIES.watchdogDelay(), PublishingSaga.WATCHDOG)
                .expectNoScheduledDeadlineWithName(Duration.ofDays(365), AttemptDue.NAME);
        assertThat(attempts.plans).singleElement().satisfies(plan -> {
            assertThat(plan.trigger()).isEqualTo(AttemptTrigger.INITIAL);
            assertThat(plan.readBeforeCreate()).isFalse();
            assertThat(plan.channelId()).isEqualTo(CHANNEL);
        });
    }

    @Test
    void aScheduledPublicationWaitsForItsTime() {
        Instant at = now.plus(Duration.ofHours(3));
        fixture.givenNoPriorActivity()
                .whenPublishingA(requested(at))
                .expectScheduledDeadline(at, new AttemptDue(AttemptTrigger.INITIAL));
        fixture.whenTimeElapses(Duration.ofHours(2));
        assertThat(attempts.plans).isEmpty();
    }

    @Test
    void aFailureThatNeverLeftIsRetriedAtItsTimeWithItsCount() {
        Instant retryAt = now.plusSeconds(4);
        fixture.givenAPublished(requested(null))
                .andThenAPublished(attempted(1))
                .whenPublishingA(failed(1, FailureKind.NOT_SENT, retryAt))
                .expectScheduledDeadline(retryAt, new AttemptDue(AttemptTrigger.RETRY));
        fixture.whenTimeElapses(Duration.ofSeconds(5));
        assertThat(attempts.plans).last().satisfies(plan -> {
            assertThat(plan.trigger()).isEqualTo(AttemptTrigger.RETRY);
            assertThat(plan.notSentFailures()).isEqualTo(1);
        });
    }

    @Test
    void aRateLimitCountsSeparately() {
        fixture.givenAPublished(requested(null))
                .andThenAPublished(attempted(1))
                .whenPublishingA(failed(1, FailureKind.RATE_LIMITED, now.plusSeconds(60)))
                .expectScheduledDeadline(now.plusSeconds(60), new AttemptDue(AttemptTrigger.RETRY));
        fixture.whenTimeElapses(Duration.ofSeconds(61));
        assertThat(attempts.plans).last().satisfies(plan -> {
            assertThat(plan.rateLimitedFailures()).isEqualTo(1);
            assertThat(plan.notSentFailures()).isZero();
        });
    }

    @Test
    void aFinalFailureSchedulesNothing() {
        fixture.givenAPublished(requested(null))
                .andThenAPublished(attempted(1))
                .whenPublishingA(failed(1, FailureKind.REJECTED, null))
                .expectNoScheduledDeadlineWithName(Duration.ofDays(365), AttemptDue.NAME)
                .expectActiveSagas(1);
    }

    @Test
    void anUnknownOutcomeIsNeverRetried() {
        fixture.givenAPublished(requested(null))
                .andThenAPublished(attempted(1))
                .whenPublishingA(unknown(1))
                .expectNoScheduledDeadlineWithName(Duration.ofDays(365), AttemptDue.NAME)
                .expectActiveSagas(1);
        fixture.whenTimeElapses(Duration.ofDays(2));
        assertThat(attempts.plans).isNotEmpty().allSatisfy(plan ->
                assertThat(plan.trigger()).isEqualTo(AttemptTrigger.INITIAL));
    }

    @Test
    void anOperatorsReattemptAfterAnUnknownOutcomeReadsBeforeItWrites() {
        fixture.givenAPublished(requested(null))
                .andThenAPublished(attempted(1))
                .andThenAPublished(unknown(1))
                .andThenAPublished(reconciled(ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR))
                .whenPublishingA(new PublicationExecutionRequestedEvent(ID, WS, AttemptTrigger.OPERATOR_REATTEMPT,
                        "olga", null, now))
                .expectScheduledDeadline(PROPERTIES.watchdogDelay(),
                        new AttemptDue(AttemptTrigger.OPERATOR_REATTEMPT));
        assertThat(attempts.plans).last().satisfies(plan -> {
            assertThat(plan.trigger()).isEqualTo(AttemptTrigger.OPERATOR_REATTEMPT);
            assertThat(plan.readBeforeCreate()).isTrue();
            assertThat(plan.lastAttemptNo()).isEqualTo(1);
        });
    }

    @Test
    void anAutomaticNotFoundAsksForTheOptInReattempt() {
        fixture.givenAPublished(requested(null))
                .andThenAPublished(attempted(1))
                .andThenAPublished(unknown(1))
                .whenPublishingA(reconciled(ReconciliationResult.NOT_FOUND, ReconciliationSource.AUTOMATIC))
                .expectNoScheduledDeadlineWithName(Duration.ofDays(365), PublishingSaga.WATCHDOG);
        assertThat(attempts.plans).last().satisfies(plan -> {
            assertThat(plan.trigger()).isEqualTo(AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND);
            assertThat(plan.readBeforeCreate()).isTrue();
        });
    }

    @Test
    void anOperatorsNotFoundWaitsForTheirReattempt() {
        fixture.givenAPublished(requested(null))
                .andThenAPublished(attempted(1))
                .andThenAPublished(unknown(1))
                .whenPublishingA(reconciled(ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR))
                .expectNoScheduledDeadlineWithName(Duration.ofDays(365), AttemptDue.NAME);
    }

    @Test
    void endsOnSuccessFoundOrAbandon() {
        fixture.givenAPublished(requested(null)).andThenAPublished(attempted(1))
                .whenPublishingA(new PublicationSucceededEvent(ID, WS, 1, new ProviderRef("1_2", null), TRACE, now))
                .expectActiveSagas(0);
        fixture = new SagaTestFixture<>(PublishingSaga.class);
        fixture.registerResource(attempts);
        fixture.registerResource(PROPERTIES);
        fixture.givenAPublished(requested(null)).andThenAPublished(attempted(1)).andThenAPublished(unknown(1))
                .whenPublishingA(reconciled(ReconciliationResult.FOUND, ReconciliationSource.AUTOMATIC))
                .expectActiveSagas(0);
        fixture = new SagaTestFixture<>(PublishingSaga.class);
        fixture.registerResource(attempts);
        fixture.registerResource(PROPERTIES);
        fixture.givenAPublished(requested(null))
                .whenPublishingA(new PublicationAbandonedEvent(ID, WS, "olga", null, now))
                .expectActiveSagas(0);
    }

    @Test
    void anAttemptThatNeverStartsIsAskedForOnceMore() {
        fixture.givenAPublished(requested(null));
        fixture.whenTimeElapses(PROPERTIES.watchdogDelay().plusSeconds(1));
        fixture.whenTimeElapses(PROPERTIES.watchdogDelay().multipliedBy(3));
        assertThat(attempts.plans).hasSize(2).allSatisfy(plan ->
                assertThat(plan.trigger()).isEqualTo(AttemptTrigger.INITIAL));
    }

    @Test
    void anAttemptThatStartedCancelsTheWatchdog() {
        fixture.givenAPublished(requested(null));
        fixture.whenPublishingA(attempted(1))
                .expectNoScheduledDeadlineWithName(Duration.ofDays(1), PublishingSaga.WATCHDOG);
    }
}
