package io.herald.command.publication;

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
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptDecision.Verdict;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.DecidePublicationCommand;
import io.herald.contracts.publication.ExecutePublicationCommand;
import io.herald.contracts.publication.ExpireAttemptCommand;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.OperatorDecision;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReadBackRequestedEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.RecordAttemptFailedCommand;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.RecordDuplicateSignalCommand;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.herald.contracts.publication.RequestPublicationCommand;
import io.herald.contracts.publication.RequestReadBackCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.contracts.publication.StartReadBackCommand;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.messaging.GenericMessage;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.hamcrest.Description;
import org.hamcrest.Matcher;
import org.hamcrest.TypeSafeMatcher;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class PublicationTest {

    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("fb-main");
    private static final PublicationId ID = IdempotencyKeys.publicationId(WS, "entry-42", 3, CHANNEL,
            PublicationAction.PUBLISH);
    private static final Content CONTENT = new Content(null, "Hello from Herald", "https://example.org/a");
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final AttemptTrace TRACE = new AttemptTrace("fp", "page-1", T0, true, 200, null, "trace-1", 120);
    private static final AttemptTrace NO_ANSWER = new AttemptTrace("fp", "page-1", T0, false, null, null, null, 30000);
    private static final ProviderRef POST = new ProviderRef("page-1_777", "https://www.facebook.com/page-1_777");

    private FixtureConfiguration<Publication> fixture;
    private ConnectionThrottle throttle;
    /** Whether the channel opted in to re-attempts after an automatic NOT_FOUND. */
    private boolean autoReattempt;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Publication.class);
        throttle = new ConnectionThrottle();
        autoReattempt = true;
        fixture.registerInjectableResource(throttle);
        fixture.registerInjectableResource(new ScriptedEntryOrder());
        fixture.registerInjectableResource(ConnectionHealth.allActive());
        fixture.registerInjectableResource(new AutoReattemptPolicy((ws, ch) -> Optional.of(new ChannelConnection(
                ws, ch, ChannelType.of("facebook"), null, null, autoReattempt))));
        // no jitter, so retry times can be expected exactly: the first retry waits the initial 2 s
        fixture.registerInjectableResource(SameKeyResendPolicy.never());
        fixture.registerInjectableResource(new RetryPolicy(new PublishingProperties(null, null, null,
                new PublishingProperties.Retry(3, 8, Duration.ofSeconds(2), 2.0, 0.0, Duration.ofMinutes(1), null), null)));
    }

    private static RequestPublicationCommand request(Content content) {
        return new RequestPublicationCommand(ID, WS, "entry-42", 3, CHANNEL, ChannelType.of("facebook"),
                PublicationAction.PUBLISH, content, null, T0, "calendar");
    }

    private static PublicationRequestedEvent requested() {
        return new PublicationRequestedEvent(ID, WS, "entry-42", 3, CHANNEL, ChannelType.of("facebook"),
                PublicationAction.PUBLISH, CONTENT, CONTENT.hash(), null, T0, "calendar");
    }

    private static PublicationAttemptedEvent attempted(int n, AttemptTrigger trigger) {
        return attempted(n, trigger, n);
    }

    private static PublicationAttemptedEvent attempted(int n, AttemptTrigger trigger, int secondsAfterT0) {
        Instant at = T0.plusSeconds(secondsAfterT0);
        return new PublicationAttemptedEvent(ID, WS, CHANNEL, n, trigger, ID.value(), CONTENT.hash(), at,
                at.plus(TIMEOUT), null, PublicationStep.CREATE_POST, null);
    }

    /** A trigger that asks for whatever attempt is next. */
    private static StartAttemptCommand start(AttemptTrigger trigger, int secondsAfterT0) {
        return start(0, trigger, secondsAfterT0);
    }

    private static StartAttemptCommand start(int expectedAttemptNo, AttemptTrigger trigger, int secondsAfterT0) {
        return new StartAttemptCommand(ID, expectedAttemptNo, trigger, T0.plusSeconds(secondsAfterT0), TIMEOUT,
                false);
    }

    private static StartAttemptCommand startAfterReading(int expectedAttemptNo, AttemptTrigger trigger,
                                                         int secondsAfterT0) {
        return new StartAttemptCommand(ID, expectedAttemptNo, trigger, T0.plusSeconds(secondsAfterT0), TIMEOUT,
                true);
    }

    private static PublicationExecutionRequestedEvent executionRequested(AttemptTrigger trigger, String by,
                                                                         String note, Instant at, int attemptNo) {
        return new PublicationExecutionRequestedEvent(ID, WS, trigger, by, note, at, attemptNo);
    }

    private static PublicationOutcomeUnknownEvent unknown(int n) {
        return new PublicationOutcomeUnknownEvent(ID, WS, n, UnknownCause.READ_TIMEOUT, "read timed out", NO_ANSWER,
                T0.plusSeconds(30));
    }

    private static PublicationReconciledEvent reconciled(int n, ReconciliationResult result, ReconciliationSource source) {
        return new PublicationReconciledEvent(ID, WS, n, result, source, null, "read back", null, null,
                T0.plusSeconds(60));
    }

    private static final ProviderRef OTHER_POST = new ProviderRef("1234567890_77", null);

    private static PublicationReconciledEvent unverifiedConfirmation() {
        return new PublicationReconciledEvent(ID, WS, 1, ReconciliationResult.FOUND, ReconciliationSource.OPERATOR,
                POST, "confirmed published by olga; the channel could not read the post back", "olga",
                "checked by hand", T0.plusSeconds(90), false);
    }

    private static DecidePublicationCommand decide(OperatorDecision decision, ProviderRef ref) {
        return decide(decision, ref, ref == null ? null : Boolean.TRUE);
    }

    /** {@code verified}: what the request's read of the post found (null: not read). */
    private static DecidePublicationCommand decide(OperatorDecision decision, ProviderRef ref, Boolean verified) {
        return new DecidePublicationCommand(ID, WS, decision, ref, "olga", "checked by hand", T0.plusSeconds(90),
                verified);
    }

    @Nested
    class Intake {

        @Test
        void firstRequestIsRecorded() {
            fixture.givenNoPriorActivity()
                    .when(request(CONTENT))
                    .expectSuccessfulHandlerExecution()
                    .expectResultMessagePayload(true)
                    .expectEvents(requested());
        }

        @Test
        void aNewRequestSentWithoutAReadIsRecordedTheSameWay() {
            fixture.givenNoPriorActivity()
                    .when(new GenericCommandMessage<>(new GenericMessage<>(request(CONTENT)), Publication.REQUEST_NEW))
                    .expectSuccessfulHandlerExecution()
                    .expectResultMessagePayload(true)
                    .expectEvents(requested());
        }

        @Test
        void sameRequestAgainChangesNothing() {
            fixture.given(requested())
                    .when(request(CONTENT))
                    .expectResultMessagePayload(false)
                    .expectNoEvents();
        }

        @Test
        void sameKeyWithOtherContentIsRefused() {
            fixture.given(requested())
                    .when(request(new Content(null, "Other text", null)))
                    .expectNoEvents()
                    .expectException(HeraldRejection.class)
                    .expectExceptionMessage(org.hamcrest.Matchers.containsString("other content"));
        }
    }

    @Nested
    class Attempts {

        @Test
        void startsTheFirstAttemptWriteAheadAndSaysWhatToSend() {
            fixture.given(requested())
                    .when(start(1, AttemptTrigger.INITIAL, 1))
                    .expectResultMessagePayloadMatching(predicate(result -> result instanceof AttemptDecision d
                            && d.verdict() == Verdict.START && d.attemptNo() == 1 && d.content().equals(CONTENT)
                            && d.action() == PublicationAction.PUBLISH && d.channelId().equals(CHANNEL)
                            && d.channelType().equals(ChannelType.of("facebook")) && d.readFirst() == null))
                    .expectEvents(attempted(1, AttemptTrigger.INITIAL));
        }

        @Test
        void refusesARedeliveredTriggerForAnAttemptThatAlreadyStarted() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL))
                    .when(start(1, AttemptTrigger.INITIAL, 2))
                    .expectNoEvents()
                    .expectResultMessagePayloadMatching(refused(Publication.STALE_TRIGGER));
            // even where an attempt could start, a trigger for an older attempt number is stale
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), notSent(1, T0.plusSeconds(5)))
                    .when(start(1, AttemptTrigger.RETRY, 6))
                    .expectNoEvents()
                    .expectResultMessagePayloadMatching(refused(Publication.STALE_TRIGGER));
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), notSent(1, T0.plusSeconds(5)))
                    .when(start(2, AttemptTrigger.RETRY, 6))
                    .expectResultMessagePayloadMatching(verdict(Verdict.START, 2))
                    .expectEvents(attempted(2, AttemptTrigger.RETRY, 6));
        }

        @Test
        void refusesASecondAttemptWhileOneIsInFlight() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL))
                    .when(start(2, AttemptTrigger.INITIAL, 2))
                    .expectNoEvents()
                    .expectSuccessfulHandlerExecution()
                    .expectResultMessagePayloadMatching(refused(ErrorCode.ATTEMPT_IN_FLIGHT.code()));
        }

        @Test
        void waitsWhileTheConnectionIsRateLimited() {
            throttle.holdUntil(WS, CHANNEL, T0.plusSeconds(60));
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), notSent(1, T0.plusSeconds(5)))
                    .when(start(2, AttemptTrigger.RETRY, 10))
                    .expectNoEvents()
                    .expectResultMessagePayloadMatching(predicate(result -> result instanceof AttemptDecision d
                            && d.verdict() == Verdict.WAIT && d.attemptNo() == 2
                            && T0.plusSeconds(60).equals(d.notBefore())));
        }

        @Test
        void recordsSuccess() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL))
                    .when(new RecordAttemptSucceededCommand(ID, 1, POST, TRACE, T0.plusSeconds(2)))
                    .expectResultMessagePayload(true)
                    .expectEvents(new PublicationSucceededEvent(ID, WS, 1, POST, TRACE, T0.plusSeconds(2)));
        }

        @Test
        void refusesToRunASucceededPublicationAgain() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL),
                            new PublicationSucceededEvent(ID, WS, 1, POST, TRACE, T0))
                    .when(start(AttemptTrigger.RETRY, 5))
                    .expectNoEvents()
                    .expectResultMessagePayloadMatching(refused(ErrorCode.PUBLICATION_ALREADY_SUCCEEDED.code()));
        }

        @Test
        void refusesExecuteOnASucceededPublication() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL),
                            new PublicationSucceededEvent(ID, WS, 1, POST, TRACE, T0))
                    .when(new ExecutePublicationCommand(ID, WS, "calendar", T0.plusSeconds(9)))
                    .expectNoEvents()
                    .expectException(rejection(ErrorCode.PUBLICATION_ALREADY_SUCCEEDED));
        }

        @Test
        void theRetryPolicyDecidesWhenANotSentFailureIsTriedAgain() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL))
                    .when(new RecordAttemptFailedCommand(ID, 1, FailureKind.NOT_SENT, "connect_refused",
                            "connection refused", NO_ANSWER, null, T0.plusSeconds(2)))
                    .expectResultMessagePayload(T0.plusSeconds(4))
                    .expectEvents(new PublicationFailedEvent(ID, WS, 1, FailureKind.NOT_SENT, "connect_refused",
                            "connection refused", NO_ANSWER, T0.plusSeconds(4), T0.plusSeconds(2)));
        }

        @Test
        void notSentFailuresAreCountedFromTheHistoryUntilTheyAreFinal() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), notSent(1, T0.plusSeconds(5)),
                            attempted(2, AttemptTrigger.RETRY, 5), notSent(2, T0.plusSeconds(20)),
                            attempted(3, AttemptTrigger.RETRY, 20))
                    .when(new RecordAttemptFailedCommand(ID, 3, FailureKind.NOT_SENT, "connect_refused",
                            "connection refused", NO_ANSWER, null, T0.plusSeconds(21)))
                    .expectResultMessagePayload(null)
                    .expectEvents(new PublicationFailedEvent(ID, WS, 3, FailureKind.NOT_SENT, "connect_refused",
                            "connection refused", NO_ANSWER, null, T0.plusSeconds(21)));
        }

        @Test
        void aRejectionIsNeverRetriedWhateverTheProviderSays() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL))
                    .when(new RecordAttemptFailedCommand(ID, 1, FailureKind.REJECTED, "100", "invalid parameter",
                            TRACE, Duration.ofSeconds(10), T0.plusSeconds(2)))
                    .expectEvents(new PublicationFailedEvent(ID, WS, 1, FailureKind.REJECTED, "100",
                            "invalid parameter", TRACE, null, T0.plusSeconds(2)));
        }

        @Test
        void aProviderDelayIsTheFloorOfARateLimitedRetry() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL))
                    .when(new RecordAttemptFailedCommand(ID, 1, FailureKind.RATE_LIMITED, "429", "slow down",
                            TRACE, Duration.ofMinutes(7), T0.plusSeconds(2)))
                    .expectResultMessagePayload(T0.plusSeconds(2).plus(Duration.ofMinutes(7)));
        }

        @Test
        void aRateLimitNeverFailsThePublicationNorSpendsItsOtherTries() {
            java.util.List<Object> history = new java.util.ArrayList<>();
            history.add(requested());
            int attempt = 1;
            // two requests that never left: one try of that kind is left
            for (; attempt <= 2; attempt++) {
                history.add(attempted(attempt, attempt == 1 ? AttemptTrigger.INITIAL : AttemptTrigger.RETRY,
                        attempt * 10));
                history.add(notSent(attempt, T0.plusSeconds(attempt * 10 + 5)));
            }
            // then twenty rate-limit answers, far more than any retry budget
            for (; attempt <= 22; attempt++) {
                history.add(attempted(attempt, AttemptTrigger.RETRY, attempt * 10));
                history.add(new PublicationFailedEvent(ID, WS, attempt, FailureKind.RATE_LIMITED, "32",
                        "(#32) Page request limit reached", TRACE, T0.plusSeconds(attempt * 10 + 5),
                        T0.plusSeconds(attempt * 10 + 1)));
            }
            history.add(attempted(attempt, AttemptTrigger.RETRY, attempt * 10));
            Instant at = T0.plusSeconds(attempt * 10 + 1);
            fixture.given(history)
                    .when(new RecordAttemptFailedCommand(ID, attempt, FailureKind.RATE_LIMITED, "32",
                            "(#32) Page request limit reached", TRACE, Duration.ofMinutes(3), at))
                    .expectResultMessagePayload(at.plus(Duration.ofMinutes(3)));
            int next = attempt + 1;
            history.add(new PublicationFailedEvent(ID, WS, attempt, FailureKind.RATE_LIMITED, "32",
                    "(#32) Page request limit reached", TRACE, at.plus(Duration.ofMinutes(3)), at));
            history.add(attempted(next, AttemptTrigger.RETRY, next * 10 + 200));
            Instant later = T0.plusSeconds(next * 10 + 201);
            // the request that never left is the third of its kind: final, as if no rate limit had come between
            fixture.given(history)
                    .when(new RecordAttemptFailedCommand(ID, next, FailureKind.NOT_SENT, "connect_refused",
                            "connection refused", NO_ANSWER, null, later))
                    .expectResultMessagePayload(null);
        }

        @Test
        void aFinalFailureCannotBeRetriedWithoutADecision() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL),
                            new PublicationFailedEvent(ID, WS, 1, FailureKind.REJECTED, "190", "bad token", TRACE,
                                    null, T0))
                    .when(start(AttemptTrigger.RETRY, 10))
                    .expectNoEvents()
                    .expectResultMessagePayloadMatching(refused(ErrorCode.PUBLICATION_NOT_EXECUTABLE.code()));
        }

        @Test
        void ignoresAResultForAnOlderAttempt() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), notSent(1, T0.plusSeconds(5)),
                            attempted(2, AttemptTrigger.RETRY))
                    .when(new RecordAttemptSucceededCommand(ID, 1, POST, TRACE, T0.plusSeconds(9)))
                    .expectSuccessfulHandlerExecution()
                    .expectResultMessagePayload(false)
                    .expectNoEvents();
        }

        @Test
        void ignoresAResultWhenNoAttemptIsInFlight() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1))
                    .when(new RecordAttemptSucceededCommand(ID, 1, POST, TRACE, T0.plusSeconds(9)))
                    .expectNoEvents();
        }

        @Test
        void recordsAnUnknownOutcome() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL))
                    .when(new RecordAttemptOutcomeUnknownCommand(ID, 1, UnknownCause.READ_TIMEOUT, "read timed out",
                            NO_ANSWER, T0.plusSeconds(30)))
                    .expectEvents(unknown(1));
        }

        @Test
        void anAttemptWithoutResultByItsExpiryBecomesInterrupted() {
            Instant expiry = T0.plusSeconds(1).plus(TIMEOUT);
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL))
                    .when(new ExpireAttemptCommand(ID, 1))
                    .expectResultMessagePayload(true)
                    .expectEvents(interrupted(1, expiry));
        }

        @Test
        void anExpiryThatFiresAfterTheResultOrTwiceChangesNothing() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL),
                            new PublicationSucceededEvent(ID, WS, 1, POST, TRACE, T0.plusSeconds(2)))
                    .when(new ExpireAttemptCommand(ID, 1))
                    .expectResultMessagePayload(false)
                    .expectNoEvents();
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL),
                            interrupted(1, T0.plusSeconds(1).plus(TIMEOUT)))
                    .when(new ExpireAttemptCommand(ID, 1))
                    .expectResultMessagePayload(false)
                    .expectNoEvents();
        }

        @Test
        void aLateExpiryOfAnOlderAttemptLeavesTheCurrentAttemptAlone() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), notSent(1, T0.plusSeconds(5)),
                            attempted(2, AttemptTrigger.RETRY, 10))
                    .when(new ExpireAttemptCommand(ID, 1))
                    .expectResultMessagePayload(false)
                    .expectNoEvents();
        }
    }

    private static PublicationFailedEvent notSent(int attemptNo, Instant retryAt) {
        return new PublicationFailedEvent(ID, WS, attemptNo, FailureKind.NOT_SENT, "connect_refused",
                "connection refused", NO_ANSWER, retryAt, T0.plusSeconds(attemptNo));
    }

    private static PublicationOutcomeUnknownEvent interrupted(int attemptNo, Instant expiry) {
        return new PublicationOutcomeUnknownEvent(ID, WS, attemptNo, UnknownCause.INTERRUPTED,
                "no result was recorded before the attempt's deadline; the process may have died or the call hung",
                AttemptTrace.nothingCameBack(null, null), expiry);
    }

    @Nested
    class ReadBacks {

        @Test
        void aReadBackIsLicensedOnlyWhileTheLatestAttemptIsUnknown() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, 1), unknown(1))
                    .when(new StartReadBackCommand(ID, 1))
                    .expectNoEvents()
                    .expectResultMessagePayload(new ReadBackLicence(ID, WS, CHANNEL, 1, PublicationAction.PUBLISH,
                            CONTENT, T0.plusSeconds(1), null, null, null, T0, null));
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1),
                            reconciled(1, ReconciliationResult.FOUND, ReconciliationSource.AUTOMATIC))
                    .when(new StartReadBackCommand(ID, 1))
                    .expectResultMessagePayload(null);
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1),
                            reconciled(1, ReconciliationResult.NOT_FOUND, ReconciliationSource.AUTOMATIC),
                            attempted(2, AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND), unknown(2))
                    .when(new StartReadBackCommand(ID, 1))
                    .expectResultMessagePayload(null);
        }

        @Test
        void aReattemptAfterNotFoundReadsBackFirstThenStarts() {
            var given = new Object[] {requested(), attempted(1, AttemptTrigger.INITIAL, 1), unknown(1),
                    reconciled(1, ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR),
                    executionRequested(AttemptTrigger.OPERATOR_REATTEMPT, "olga", null, T0, 2)};
            fixture.given(given)
                    .when(start(2, AttemptTrigger.OPERATOR_REATTEMPT, 100))
                    .expectNoEvents()
                    .expectResultMessagePayloadMatching(predicate(result -> result instanceof AttemptDecision d
                            && d.verdict() == Verdict.READ_FIRST && d.attemptNo() == 2
                            && d.readFirst().equals(new ReadBackLicence(ID, WS, CHANNEL, 1, PublicationAction.PUBLISH,
                            CONTENT, T0.plusSeconds(1), null, null, null, T0, null))));
            fixture.given(given)
                    .when(startAfterReading(2, AttemptTrigger.OPERATOR_REATTEMPT, 101))
                    .expectResultMessagePayloadMatching(verdict(Verdict.START, 2))
                    .expectEvents(attempted(2, AttemptTrigger.OPERATOR_REATTEMPT, 101));
        }

        @Test
        void anAutomaticReattemptNeedsTheChannelsOptIn() {
            autoReattempt = false;
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1),
                            reconciled(1, ReconciliationResult.NOT_FOUND, ReconciliationSource.AUTOMATIC))
                    .when(startAfterReading(2, AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND, 70))
                    .expectNoEvents()
                    .expectResultMessagePayloadMatching(refused(ErrorCode.PUBLICATION_NOT_EXECUTABLE.code()));
        }
    }

    @Nested
    class AfterAnUnknownOutcome {

        @Test
        void refusesABlindRetry() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1))
                    .when(start(AttemptTrigger.RETRY, 40))
                    .expectNoEvents()
                    .expectResultMessagePayloadMatching(refused(ErrorCode.OUTCOME_UNKNOWN_REQUIRES_DECISION.code()));
        }

        @Test
        void refusesExecute() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1))
                    .when(new ExecutePublicationCommand(ID, WS, "calendar", T0.plusSeconds(40)))
                    .expectNoEvents()
                    .expectException(rejection(ErrorCode.OUTCOME_UNKNOWN_REQUIRES_DECISION));
        }

        @Test
        void readBackFoundSucceeds() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1))
                    .when(new RecordReconciliationCommand(ID, 1, ReconciliationResult.FOUND, POST, "1 match",
                            T0.plusSeconds(60)))
                    .expectEvents(new PublicationReconciledEvent(ID, WS, 1, ReconciliationResult.FOUND,
                            ReconciliationSource.AUTOMATIC, POST, "1 match", null, null, T0.plusSeconds(60)));
        }

        @Test
        void readBackUnknownKeepsItBlocked() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1),
                            reconciled(1, ReconciliationResult.UNKNOWN, ReconciliationSource.AUTOMATIC))
                    .when(start(AttemptTrigger.RETRY, 70))
                    .expectResultMessagePayloadMatching(refused(ErrorCode.OUTCOME_UNKNOWN_REQUIRES_DECISION.code()));
        }

        @Test
        void refusesReattemptBeforeNotFound() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1))
                    .when(decide(OperatorDecision.REATTEMPT, null))
                    .expectNoEvents()
                    .expectException(rejection(ErrorCode.DECISION_NOT_ALLOWED));
        }

        @Test
        void notFoundByReadBackAllowsOnlyAnOptedInAutomaticReattempt() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1),
                            reconciled(1, ReconciliationResult.NOT_FOUND, ReconciliationSource.AUTOMATIC))
                    .when(startAfterReading(2, AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND, 70))
                    .expectEvents(attempted(2, AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND, 70));
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1),
                            reconciled(1, ReconciliationResult.NOT_FOUND, ReconciliationSource.AUTOMATIC))
                    .when(start(AttemptTrigger.RETRY, 70))
                    .expectNoEvents()
                    .expectResultMessagePayloadMatching(refused(ErrorCode.PUBLICATION_NOT_EXECUTABLE.code()));
        }

        @Test
        void operatorConfirmsNotPublishedThenReattempts() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1))
                    .when(decide(OperatorDecision.CONFIRM_NOT_PUBLISHED, null))
                    .expectEvents(new PublicationReconciledEvent(ID, WS, 1, ReconciliationResult.NOT_FOUND,
                            ReconciliationSource.OPERATOR, null, "confirmed not published by olga", "olga",
                            "checked by hand", T0.plusSeconds(90)));
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1),
                            reconciled(1, ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR))
                    .when(decide(OperatorDecision.REATTEMPT, null))
                    .expectEvents(executionRequested(AttemptTrigger.OPERATOR_REATTEMPT,
                            "olga", "checked by hand", T0.plusSeconds(90), 2));
        }

        @Test
        void anOperatorNotFoundDoesNotAllowAnAutomaticReattempt() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1),
                            reconciled(1, ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR))
                    .when(start(AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND, 70))
                    .expectResultMessagePayloadMatching(refused(ErrorCode.PUBLICATION_NOT_EXECUTABLE.code()));
        }

        @Test
        void aPostThatAppearsLateWinsOverTheReattempt() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1),
                            reconciled(1, ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR),
                            executionRequested(AttemptTrigger.OPERATOR_REATTEMPT, "olga", null, T0, 2))
                    .when(new RecordReconciliationCommand(ID, 1, ReconciliationResult.FOUND, POST, "appeared late",
                            T0.plusSeconds(100)))
                    .expectEvents(new PublicationReconciledEvent(ID, WS, 1, ReconciliationResult.FOUND,
                            ReconciliationSource.AUTOMATIC, POST, "appeared late", null, null, T0.plusSeconds(100)));
        }

        @Test
        void aDuplicateRefusalOnAReattemptProvesTheEarlierAttemptLanded() {
            var earlier = new ProviderRef("urn:li:share:714", null);
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1),
                            reconciled(1, ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR),
                            executionRequested(AttemptTrigger.OPERATOR_REATTEMPT, "olga", null, T0, 2),
                            attempted(2, AttemptTrigger.OPERATOR_REATTEMPT))
                    .when(new RecordDuplicateSignalCommand(ID, 2, earlier, "duplicate of urn:li:share:714", TRACE,
                            T0.plusSeconds(120)))
                    .expectEvents(new PublicationReconciledEvent(ID, WS, 2, ReconciliationResult.FOUND,
                            ReconciliationSource.PROVIDER_DUPLICATE_SIGNAL, earlier, "duplicate of urn:li:share:714",
                            null, null, T0.plusSeconds(120)));
        }

        @Test
        void anOperatorMayAskForAReadBackOnlyWhileTheOutcomeIsUnknown() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1))
                    .when(new RequestReadBackCommand(ID, WS, "olga", T0.plusSeconds(50)))
                    .expectEvents(new PublicationReadBackRequestedEvent(ID, WS, 1, "olga", T0.plusSeconds(50)));
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL))
                    .when(new RequestReadBackCommand(ID, WS, "olga", T0.plusSeconds(50)))
                    .expectNoEvents()
                    .expectException(rejection(ErrorCode.DECISION_NOT_ALLOWED));
        }

        @Test
        void ignoresAReadBackForAnOlderAttempt() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1),
                            reconciled(1, ReconciliationResult.NOT_FOUND, ReconciliationSource.AUTOMATIC),
                            attempted(2, AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND), unknown(2))
                    .when(new RecordReconciliationCommand(ID, 1, ReconciliationResult.FOUND, POST, "old",
                            T0.plusSeconds(200)))
                    .expectNoEvents();
        }
    }

    @Nested
    class Decisions {

        @Test
        void aDuplicateRefusalOnAFirstAttemptIsARejection() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL))
                    .when(new RecordDuplicateSignalCommand(ID, 1, null, "(#506) Duplicate status message", TRACE,
                            T0.plusSeconds(2)))
                    .expectEvents(new PublicationFailedEvent(ID, WS, 1, FailureKind.REJECTED, "duplicate_content",
                            "the provider refused the post as a duplicate of one that already exists (perhaps"
                                    + " posted by hand): (#506) Duplicate status message",
                            TRACE, null, T0.plusSeconds(2)));
        }

        @Test
        void confirmPublishedNeedsAnIdOrUrl() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1))
                    .when(decide(OperatorDecision.CONFIRM_PUBLISHED, new ProviderRef(" ", null)))
                    .expectNoEvents()
                    .expectException(rejection(ErrorCode.VALIDATION_FAILED));
        }

        @Test
        void confirmPublishedSucceeds() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1))
                    .when(decide(OperatorDecision.CONFIRM_PUBLISHED, POST))
                    .expectEvents(new PublicationReconciledEvent(ID, WS, 1, ReconciliationResult.FOUND,
                            ReconciliationSource.OPERATOR, POST, "confirmed published by olga", "olga",
                            "checked by hand", T0.plusSeconds(90), true));
        }

        @Test
        void confirmPublishedOfAPostNotReadBackIsRefused() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1))
                    .when(decide(OperatorDecision.CONFIRM_PUBLISHED, POST, null))
                    .expectNoEvents()
                    .expectException(rejection(ErrorCode.DECISION_NOT_ALLOWED));
        }

        @Test
        void confirmPublishedThatTheChannelCannotReadIsRecordedUnverified() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1))
                    .when(decide(OperatorDecision.CONFIRM_PUBLISHED, POST, false))
                    .expectEvents(unverifiedConfirmation());
        }

        @Test
        void anUnverifiedConfirmationIsConfirmedAgainOnlyWithAPostReadBack() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1), unverifiedConfirmation())
                    .when(decide(OperatorDecision.CONFIRM_PUBLISHED, POST, false))
                    .expectNoEvents()
                    .expectException(rejection(ErrorCode.DECISION_NOT_ALLOWED));
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1), unverifiedConfirmation())
                    .when(decide(OperatorDecision.CONFIRM_PUBLISHED, OTHER_POST, true))
                    .expectEvents(new PublicationReconciledEvent(ID, WS, 1, ReconciliationResult.FOUND,
                            ReconciliationSource.OPERATOR, OTHER_POST, "confirmed again by olga", "olga",
                            "checked by hand", T0.plusSeconds(90), true));
        }

        @Test
        void aVerifiedConfirmationIsFinal() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1),
                            new PublicationReconciledEvent(ID, WS, 1, ReconciliationResult.FOUND,
                                    ReconciliationSource.OPERATOR, POST, "confirmed published by olga", "olga", null,
                                    T0.plusSeconds(60), true))
                    .when(decide(OperatorDecision.CONFIRM_PUBLISHED, OTHER_POST, true))
                    .expectNoEvents()
                    .expectException(rejection(ErrorCode.DECISION_NOT_ALLOWED));
        }

        @Test
        void confirmNotPublishedOnlyAfterAnUnknownOutcome() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL),
                            new PublicationFailedEvent(ID, WS, 1, FailureKind.REJECTED, "190", "bad token", TRACE,
                                    null, T0))
                    .when(decide(OperatorDecision.CONFIRM_NOT_PUBLISHED, null))
                    .expectException(rejection(ErrorCode.DECISION_NOT_ALLOWED));
        }

        @Test
        void reattemptAfterAFinalFailure() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL),
                            new PublicationFailedEvent(ID, WS, 1, FailureKind.REJECTED, "190", "bad token", TRACE,
                                    null, T0))
                    .when(decide(OperatorDecision.REATTEMPT, null))
                    .expectEvents(executionRequested(AttemptTrigger.OPERATOR_REATTEMPT,
                            "olga", "checked by hand", T0.plusSeconds(90), 2));
        }

        @Test
        void abandonIsTerminal() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1))
                    .when(decide(OperatorDecision.ABANDON, null))
                    .expectEvents(new PublicationAbandonedEvent(ID, WS, "olga", "checked by hand",
                            T0.plusSeconds(90)));
            fixture.given(requested(), new PublicationAbandonedEvent(ID, WS, "olga", null, T0))
                    .when(decide(OperatorDecision.REATTEMPT, null))
                    .expectException(rejection(ErrorCode.DECISION_NOT_ALLOWED));
            fixture.given(requested(), new PublicationAbandonedEvent(ID, WS, "olga", null, T0))
                    .when(new ExecutePublicationCommand(ID, WS, "calendar", T0))
                    .expectException(rejection(ErrorCode.PUBLICATION_NOT_EXECUTABLE));
        }

        @Test
        void cannotAbandonWhileAnAttemptIsInFlight() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL))
                    .when(decide(OperatorDecision.ABANDON, null))
                    .expectException(rejection(ErrorCode.DECISION_NOT_ALLOWED));
        }

        @Test
        void noDecisionOnASucceededPublication() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL),
                            new PublicationSucceededEvent(ID, WS, 1, POST, TRACE, T0))
                    .when(decide(OperatorDecision.ABANDON, null))
                    .expectNoEvents()
                    .expectException(rejection(ErrorCode.DECISION_NOT_ALLOWED));
        }

        @Test
        void executeRequestsAnAttemptForAScheduledPublication() {
            fixture.given(requested())
                    .when(new ExecutePublicationCommand(ID, WS, "calendar", T0.plusSeconds(3)))
                    .expectEvents(executionRequested(AttemptTrigger.EXECUTE_REQUESTED,
                            "calendar", null, T0.plusSeconds(3), 1));
        }

        @Test
        void anotherWorkspaceCannotTellThePublicationExists() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL), unknown(1))
                    .when(new DecidePublicationCommand(ID, new WorkspaceId("intruder"), OperatorDecision.ABANDON,
                            null, "mallory", null, T0))
                    .expectNoEvents()
                    .expectException(rejection(ErrorCode.NOT_FOUND));
            fixture.given(requested())
                    .when(new ExecutePublicationCommand(ID, new WorkspaceId("intruder"), "mallory", T0))
                    .expectNoEvents()
                    .expectException(rejection(ErrorCode.NOT_FOUND));
        }

        @Test
        void executeWhileInFlightIsRefused() {
            fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL))
                    .when(new ExecutePublicationCommand(ID, WS, "calendar", T0.plusSeconds(3)))
                    .expectException(rejection(ErrorCode.ATTEMPT_IN_FLIGHT));
        }
    }

    private static Matcher<Object> refused(String code) {
        return predicate(result -> result instanceof AttemptDecision d && d.verdict() == Verdict.REFUSED
                && d.refusal().equals(code));
    }

    private static Matcher<Object> verdict(Verdict verdict, int attemptNo) {
        return predicate(result -> result instanceof AttemptDecision d && d.verdict() == verdict
                && d.attemptNo() == attemptNo);
    }

    private static Matcher<HeraldRejection> rejection(ErrorCode code) {
        return new TypeSafeMatcher<>() {
            @Override
            protected boolean matchesSafely(HeraldRejection rejection) {
                return rejection.code() == code;
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("a rejection with code ").appendValue(code.code());
            }
        };
    }
}
