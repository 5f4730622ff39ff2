package io.herald.command.publication;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.port.ChannelConnection;
import io.herald.command.publishing.AutoReattemptPolicy;
import io.herald.command.publishing.ConnectionThrottle;
import io.herald.command.publishing.PublishingProperties;
import io.herald.command.publishing.RetryPolicy;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.DecidePublicationCommand;
import io.herald.contracts.publication.ExecutePublicationCommand;
import io.herald.contracts.publication.ExpireAttemptCommand;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.OperatorDecision;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.RecordAttemptFailedCommand;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.RecordDuplicateSignalCommand;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.herald.contracts.publication.RequestReadBackCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.contracts.publication.StartReadBackCommand;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.ResultMessage;
import org.axonframework.test.AxonAssertionError;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.hamcrest.BaseMatcher;
import org.hamcrest.Description;
import org.junit.jupiter.api.Test;

/**
 * The publication's state machine under random sequences (fixed seed): triggers with right, stale
 * and replayed attempt numbers, results of every class for the current and older attempts, results
 * that never come (a node died during the call or before recording it), expiry rows that fire late
 * or twice, read-backs, redelivered triggers and operator decisions. After every step the history
 * must keep rules 1–5 of DESIGN.md, and the provider must have seen at most one call that may have
 * created a post, unless a NOT_FOUND read-back of it came in between. Each granted start counts as
 * a provider call; a call whose failure proves it did not execute creates nothing.
 */
class PublicationStateMachineTest {

    private static final long SEED = 20261201L;
    private static final int SEQUENCES = 300;
    private static final int STEPS = 40;
    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("fb-main");
    private static final PublicationId ID = IdempotencyKeys.publicationId(WS, "entry-42", 3, CHANNEL,
            PublicationAction.PUBLISH);
    private static final Content CONTENT = new Content(null, "Hello from Herald", null);
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final AttemptTrace TRACE = new AttemptTrace("fp", "page-1", T0, true, 200, null, "trace-1", 120);
    private static final ProviderRef POST = new ProviderRef("page-1_777", null);

    @Test
    void randomSequencesKeepTheRulesAndNeverCreateTwiceWithoutANotFoundBetween() {
        Random random = new Random(SEED);
        int steps = 0;
        int starts = 0;
        for (int sequence = 0; sequence < SEQUENCES; sequence++) {
            Run run = new Run(random);
            for (int step = 0; step < STEPS; step++) {
                run.step();
                steps++;
            }
            starts += run.starts;
        }
        System.out.printf("[state-machine] seed=%d sequences=%d steps=%d attempts_started=%d%n", SEED, SEQUENCES,
                steps, starts);
        assertThat(starts).as("attempts started across all sequences").isGreaterThan(SEQUENCES);
    }

    /** One publication's random life: the history so far, and what the provider may hold. */
    private static final class Run {
        private final Random random;
        private final FixtureConfiguration<Publication> fixture = new AggregateTestFixture<>(Publication.class);
        private final List<Object> history = new ArrayList<>();
        private final boolean autoReattempt;
        /** Attempts whose call may have created a post, and no NOT_FOUND says otherwise. */
        private final Set<Integer> mayHaveCreated = new HashSet<>();
        private StartAttemptCommand lastStart;
        private int seconds;
        private int starts;

        Run(Random random) {
            this.random = random;
            autoReattempt = random.nextBoolean();
            fixture.registerInjectableResource(new ConnectionThrottle());
            fixture.registerInjectableResource(new AutoReattemptPolicy((ws, ch) -> Optional.of(
                    new ChannelConnection(ws, ch, ChannelType.FACEBOOK, null, null, autoReattempt))));
            fixture.registerInjectableResource(new RetryPolicy(new PublishingProperties(null, null, null, null, null)));
            history.add(new PublicationRequestedEvent(ID, WS, "entry-42", 3, CHANNEL, ChannelType.FACEBOOK,
                    PublicationAction.PUBLISH, CONTENT, CONTENT.hash(), null, T0, "calendar"));
        }

        void step() {
            seconds += 1 + random.nextInt(30);
            Instant now = T0.plusSeconds(seconds);
            int latest = latestAttempt();
            // mostly the latest attempt, sometimes an older one (a late or replayed message)
            int someAttempt = Math.max(0, random.nextInt(5) == 0 ? latest - 1 : latest);
            Object command = switch (random.nextInt(12)) {
                case 0, 1 -> lastStart = new StartAttemptCommand(ID, pick(latest + 1, latest + 1, 0, latest, latest + 2),
                        AttemptTrigger.values()[random.nextInt(AttemptTrigger.values().length)], now,
                        Duration.ofMinutes(2), random.nextBoolean());
                case 2 -> lastStart != null ? lastStart : new StartAttemptCommand(ID, 1, AttemptTrigger.INITIAL, now,
                        Duration.ofMinutes(2), false);
                // success ends a sequence's interesting part, so it comes less often than the rest
                case 3 -> random.nextInt(3) == 0 ? new RecordAttemptSucceededCommand(ID, someAttempt, POST, TRACE, now)
                        : new RecordAttemptOutcomeUnknownCommand(ID, someAttempt, UnknownCause.CONNECTION_RESET,
                        "x", TRACE, now);
                case 4 -> new RecordAttemptFailedCommand(ID, someAttempt,
                        FailureKind.values()[random.nextInt(FailureKind.values().length)], "x", "x", TRACE,
                        random.nextBoolean() ? Duration.ofSeconds(5) : null, now);
                case 5 -> new RecordAttemptOutcomeUnknownCommand(ID, someAttempt, UnknownCause.READ_TIMEOUT, "x",
                        TRACE, now);
                case 6 -> new RecordDuplicateSignalCommand(ID, someAttempt, POST, "duplicate", TRACE, now);
                case 7 -> new ExpireAttemptCommand(ID, someAttempt);
                case 8 -> new RecordReconciliationCommand(ID, someAttempt,
                        ReconciliationResult.values()[random.nextInt(3)], POST, "read", now);
                case 9 -> new DecidePublicationCommand(ID, WS,
                        OperatorDecision.values()[random.nextInt(OperatorDecision.values().length)], POST, "olga",
                        null, now);
                case 10 -> random.nextBoolean() ? new ExecutePublicationCommand(ID, WS, "calendar", now)
                        : new RequestReadBackCommand(ID, WS, "olga", now);
                default -> new StartReadBackCommand(ID, someAttempt);
            };
            Capture<List<EventMessage<?>>> events = new Capture<>();
            Capture<ResultMessage<?>> result = new Capture<>();
            var validator = fixture.given(history).when(command);
            Object answer = null;
            try {
                validator.expectSuccessfulHandlerExecution();
                validator.expectEventsMatching(events).expectResultMessageMatching(result);
                answer = result.value.getPayload();
            } catch (AxonAssertionError refused) {
                // a refusal the REST layer maps to an error is thrown before anything is applied
                events.value = List.of();
            }
            for (EventMessage<?> event : events.value) {
                history.add(event.getPayload());
            }
            if (answer instanceof AttemptDecision decision && decision.started()) {
                starts++;
                mayHaveCreated.add(decision.attemptNo());
            }
            for (EventMessage<?> event : events.value) {
                if (event.getPayload() instanceof PublicationFailedEvent failed) {
                    // a failure proves the call did not execute
                    mayHaveCreated.remove(failed.attemptNo());
                } else if (event.getPayload() instanceof PublicationReconciledEvent reconciled
                        && reconciled.result() == ReconciliationResult.NOT_FOUND) {
                    mayHaveCreated.remove(reconciled.attemptNo());
                }
            }
            check(command);
        }

        private void check(Object command) {
            String where = "after " + command + " in " + history;
            assertThat(mayHaveCreated).as("calls that may have created a post, " + where).hasSizeLessThanOrEqualTo(1);
            Integer inFlight = null;
            int lastAttemptNo = 0;
            boolean unknownPending = false;
            boolean succeeded = false;
            for (Object event : history) {
                if (event instanceof PublicationAttemptedEvent a) {
                    assertThat(inFlight).as("rule 1: one attempt in flight, " + where).isNull();
                    assertThat(a.attemptNo()).as("rule 1: consecutive attempt numbers, " + where)
                            .isEqualTo(lastAttemptNo + 1);
                    assertThat(unknownPending).as("rule 3: no attempt after an unknown outcome without NOT_FOUND, "
                            + where).isFalse();
                    assertThat(succeeded).as("rule 4: nothing after success, " + where).isFalse();
                    inFlight = a.attemptNo();
                    lastAttemptNo = a.attemptNo();
                } else if (event instanceof PublicationSucceededEvent s) {
                    assertThat(s.attemptNo()).as("rule 5: results only for the attempt in flight, " + where)
                            .isEqualTo(inFlight);
                    inFlight = null;
                    succeeded = true;
                } else if (event instanceof PublicationFailedEvent f) {
                    assertThat(f.attemptNo()).as("rule 5, " + where).isEqualTo(inFlight);
                    inFlight = null;
                } else if (event instanceof PublicationOutcomeUnknownEvent u) {
                    assertThat(u.attemptNo()).as("rule 5 and 2, " + where).isEqualTo(inFlight);
                    inFlight = null;
                    unknownPending = true;
                } else if (event instanceof PublicationReconciledEvent r) {
                    assertThat(r.attemptNo()).as("rule 5: a read-back of the latest attempt, " + where)
                            .isEqualTo(lastAttemptNo);
                    // only a duplicate refusal closes an attempt in flight (it is that attempt's answer)
                    if (inFlight != null) {
                        assertThat(r.source().name()).as("rule 2, " + where).isEqualTo("PROVIDER_DUPLICATE_SIGNAL");
                        inFlight = null;
                    }
                    switch (r.result()) {
                        case FOUND -> {
                            succeeded = true;
                            unknownPending = false;
                        }
                        case NOT_FOUND -> unknownPending = false;
                        case UNKNOWN -> { }
                    }
                } else if (event instanceof io.herald.contracts.publication.PublicationAbandonedEvent) {
                    assertThat(inFlight).as("rule 2: an attempt is closed only by its outcome, " + where).isNull();
                }
            }
        }

        private int latestAttempt() {
            return history.stream().filter(PublicationAttemptedEvent.class::isInstance)
                    .mapToInt(e -> ((PublicationAttemptedEvent) e).attemptNo()).max().orElse(0);
        }

        private int pick(int... choices) {
            return choices[random.nextInt(choices.length)];
        }
    }

    /** Records what the fixture hands it, and always matches. */
    private static final class Capture<T> extends BaseMatcher<T> {
        T value;

        @Override
        @SuppressWarnings("unchecked")
        public boolean matches(Object actual) {
            value = (T) actual;
            return true;
        }

        @Override
        public void describeTo(Description description) {
            description.appendText("anything");
        }
    }

}
