package io.herald.command.publication;

import static org.axonframework.test.matchers.Matchers.andNoMore;
import static org.axonframework.test.matchers.Matchers.exactSequenceOf;
import static org.axonframework.test.matchers.Matchers.payloadsMatching;
import static org.axonframework.test.matchers.Matchers.predicate;

import io.herald.adapters.port.ChannelConnection;
import io.herald.command.health.ConnectionHealth;
import io.herald.command.publishing.AutoReattemptPolicy;
import io.herald.command.publishing.ConnectionThrottle;
import io.herald.command.publishing.PublishingProperties;
import io.herald.command.publishing.RetryPolicy;
import io.herald.command.publishing.SameKeyResendPolicy;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptDecision.Verdict;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ExpireAttemptCommand;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationResendDueEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.Test;

/**
 * Rule 3's one exception, per retry-safety class: an unknown create is sent again with the same
 * key without a read-back only on a {@code client_id} connection (as often as the retry policy
 * allows) or a {@code provider_key} one (once, inside the window); on {@code read_back} and
 * {@code none} connections nothing changes, and a re-send is refused.
 */
class PublicationSameKeyResendTest {

    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("main");
    private static final ChannelType TYPE = ChannelType.of("bluesky");
    private static final PublicationId ID = IdempotencyKeys.publicationId(WS, "entry-42", 3, CHANNEL,
            PublicationAction.PUBLISH);
    private static final Content CONTENT = new Content(null, "Hello from Herald", null);
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final Duration WINDOW = Duration.ofMinutes(50);
    private static final AttemptTrace NO_ANSWER = new AttemptTrace("fp", "did:plc:a", T0, false, null, null, null,
            30000);
    /** No request that never left is tried more than 3 times: a client_id chain has at most 2 re-sends. */
    private static final PublishingProperties.Retry RETRY =
            new PublishingProperties.Retry(3, 8, Duration.ofSeconds(2), 2.0, 0.0, Duration.ofMinutes(1), null);

    private static FixtureConfiguration<Publication> fixture(SameKeyResendPolicy resends) {
        return fixture(resends, ConnectionHealth.allActive());
    }

    private static FixtureConfiguration<Publication> fixture(SameKeyResendPolicy resends, ConnectionHealth health) {
        FixtureConfiguration<Publication> fixture = new AggregateTestFixture<>(Publication.class);
        fixture.registerInjectableResource(new ConnectionThrottle());
        fixture.registerInjectableResource(new ScriptedEntryOrder());
        fixture.registerInjectableResource(health);
        fixture.registerInjectableResource(new AutoReattemptPolicy((ws, ch) -> Optional.of(new ChannelConnection(
                ws, ch, TYPE, null, null, false))));
        fixture.registerInjectableResource(new RetryPolicy(new PublishingProperties(null, null, null, RETRY, null)));
        fixture.registerInjectableResource(resends);
        return fixture;
    }

    private static SameKeyResendPolicy of(RetrySafety safety, Duration window) {
        return new SameKeyResendPolicy(type -> Optional.of(new SameKeyResendPolicy.Licence(safety, window)));
    }

    private static FixtureConfiguration<Publication> clientId() {
        return fixture(of(RetrySafety.CLIENT_ID, ChronoUnit.FOREVER.getDuration()));
    }

    private static FixtureConfiguration<Publication> providerKey() {
        return fixture(of(RetrySafety.PROVIDER_KEY, WINDOW));
    }

    private static PublicationRequestedEvent requested() {
        return new PublicationRequestedEvent(ID, WS, "entry-42", 3, CHANNEL, TYPE, PublicationAction.PUBLISH,
                CONTENT, CONTENT.hash(), null, T0, "calendar");
    }

    private static PublicationAttemptedEvent attempted(int n, AttemptTrigger trigger, Instant at) {
        return new PublicationAttemptedEvent(ID, WS, CHANNEL, n, trigger, ID.value(), CONTENT.hash(), at,
                at.plus(TIMEOUT), null, PublicationStep.CREATE_POST, null);
    }

    private static PublicationOutcomeUnknownEvent unknown(int n, Instant at) {
        return new PublicationOutcomeUnknownEvent(ID, WS, n, UnknownCause.READ_TIMEOUT, "read timed out", NO_ANSWER,
                at);
    }

    private static RecordAttemptOutcomeUnknownCommand recordUnknown(int n, Instant at) {
        return new RecordAttemptOutcomeUnknownCommand(ID, n, UnknownCause.READ_TIMEOUT, "read timed out", NO_ANSWER,
                at);
    }

    private static PublicationResendDueEvent resendDue(int unknownNo, RetrySafety safety, Instant originalStartedAt,
                                                       Instant until, int resendNo, Instant at) {
        return new PublicationResendDueEvent(ID, WS, unknownNo, unknownNo + 1, PublicationStep.CREATE_POST, safety,
                ID.value(), originalStartedAt, until, resendNo, at);
    }

    private static StartAttemptCommand resend(int attemptNo, Instant at) {
        return new StartAttemptCommand(ID, attemptNo, AttemptTrigger.RESEND_SAME_KEY, at, TIMEOUT, false);
    }

    @Test
    void anUnknownCreateOnAClientIdConnectionIsMadeDueAgainWithItsKey() {
        clientId().given(requested(), attempted(1, AttemptTrigger.INITIAL, T0))
                .when(recordUnknown(1, T0.plusSeconds(30)))
                .expectEvents(unknown(1, T0.plusSeconds(30)),
                        resendDue(1, RetrySafety.CLIENT_ID, T0, null, 1, T0.plusSeconds(30)));
    }

    @Test
    void theResendStartsWithoutReadingAndCarriesTheUnknownAttemptsKey() {
        Instant at = T0.plusSeconds(31);
        clientId().given(requested(), attempted(1, AttemptTrigger.INITIAL, T0), unknown(1, T0.plusSeconds(30)),
                        resendDue(1, RetrySafety.CLIENT_ID, T0, null, 1, T0.plusSeconds(30)))
                .when(resend(2, at))
                .expectEvents(attempted(2, AttemptTrigger.RESEND_SAME_KEY, at))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.START && d.attemptNo() == 2
                        && d.trigger() == AttemptTrigger.RESEND_SAME_KEY));
    }

    @Test
    void anInterruptedCreateOnAClientIdConnectionIsMadeDueAgainToo() {
        Instant expiry = T0.plus(TIMEOUT);
        clientId().given(requested(), attempted(1, AttemptTrigger.INITIAL, T0))
                .when(new ExpireAttemptCommand(ID, 1))
                .expectEventsMatching(payloadsMatching(exactSequenceOf(
                                predicate(e -> e instanceof PublicationOutcomeUnknownEvent u
                                        && u.cause() == UnknownCause.INTERRUPTED),
                                predicate(e -> e.equals(resendDue(1, RetrySafety.CLIENT_ID, T0, null, 1, expiry))),
                                andNoMore())));
    }

    @Test
    void aClientIdChainStopsAtTheRetryPolicysBoundAndIsReadBack() {
        clientId().given(requested(), attempted(1, AttemptTrigger.INITIAL, T0), unknown(1, T0.plusSeconds(30)),
                        resendDue(1, RetrySafety.CLIENT_ID, T0, null, 1, T0.plusSeconds(30)),
                        attempted(2, AttemptTrigger.RESEND_SAME_KEY, T0.plusSeconds(31)),
                        unknown(2, T0.plusSeconds(60)),
                        resendDue(2, RetrySafety.CLIENT_ID, T0, null, 2, T0.plusSeconds(60)),
                        attempted(3, AttemptTrigger.RESEND_SAME_KEY, T0.plusSeconds(61)))
                .when(recordUnknown(3, T0.plusSeconds(90)))
                .expectEvents(unknown(3, T0.plusSeconds(90)));
    }

    @Test
    void anUnknownCreateOnAProviderKeyConnectionIsMadeDueOnceInsideTheWindow() {
        providerKey().given(requested(), attempted(1, AttemptTrigger.INITIAL, T0))
                .when(recordUnknown(1, T0.plusSeconds(30)))
                .expectEvents(unknown(1, T0.plusSeconds(30)), resendDue(1, RetrySafety.PROVIDER_KEY, T0,
                        T0.plus(WINDOW), 1, T0.plusSeconds(30)));
    }

    @Test
    void anUnknownAnswerToAProviderKeyResendIsReadBackNeverSentAThirdTime() {
        providerKey().given(requested(), attempted(1, AttemptTrigger.INITIAL, T0), unknown(1, T0.plusSeconds(30)),
                        resendDue(1, RetrySafety.PROVIDER_KEY, T0, T0.plus(WINDOW), 1, T0.plusSeconds(30)),
                        attempted(2, AttemptTrigger.RESEND_SAME_KEY, T0.plusSeconds(31)))
                .when(recordUnknown(2, T0.plusSeconds(40)))
                .expectEvents(unknown(2, T0.plusSeconds(40)));
    }

    @Test
    void anUnknownAfterTheProviderKeyWindowIsReadBack() {
        Instant late = T0.plus(WINDOW).plusSeconds(1);
        providerKey().given(requested(), attempted(1, AttemptTrigger.INITIAL, T0))
                .when(recordUnknown(1, late))
                .expectEvents(unknown(1, late));
    }

    @Test
    void aProviderKeyResendThatWouldStartAfterTheWindowIsRefused() {
        providerKey().given(requested(), attempted(1, AttemptTrigger.INITIAL, T0), unknown(1, T0.plusSeconds(30)),
                        resendDue(1, RetrySafety.PROVIDER_KEY, T0, T0.plus(WINDOW), 1, T0.plusSeconds(30)))
                .when(resend(2, T0.plus(WINDOW)))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED
                        && ErrorCode.OUTCOME_UNKNOWN_REQUIRES_DECISION.code().equals(d.refusal())));
    }

    @Test
    void anUnknownCreateOnAReadBackOrNoneConnectionIsOnlyReadBack() {
        fixture(SameKeyResendPolicy.never()).given(requested(), attempted(1, AttemptTrigger.INITIAL, T0))
                .when(recordUnknown(1, T0.plusSeconds(30)))
                .expectEvents(unknown(1, T0.plusSeconds(30)));
        // a plug-in that says client_id but gives no window re-sends nothing either
        fixture(of(RetrySafety.CLIENT_ID, Duration.ZERO)).given(requested(), attempted(1, AttemptTrigger.INITIAL, T0))
                .when(recordUnknown(1, T0.plusSeconds(30)))
                .expectEvents(unknown(1, T0.plusSeconds(30)));
    }

    @Test
    void refusesAResendOnAReadBackConnectionEvenWithAResendOnRecord() {
        // the history says a re-send was due (the connection changed since): rule 3 holds for what it is now
        fixture(SameKeyResendPolicy.never()).given(requested(), attempted(1, AttemptTrigger.INITIAL, T0),
                        unknown(1, T0.plusSeconds(30)),
                        resendDue(1, RetrySafety.CLIENT_ID, T0, null, 1, T0.plusSeconds(30)))
                .when(resend(2, T0.plusSeconds(31)))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED));
    }

    @Test
    void refusesAResendThatNoUnknownOutcomeMadeDue() {
        clientId().given(requested(), attempted(1, AttemptTrigger.INITIAL, T0), unknown(1, T0.plusSeconds(30)))
                .when(resend(2, T0.plusSeconds(31)))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED
                        && ErrorCode.OUTCOME_UNKNOWN_REQUIRES_DECISION.code().equals(d.refusal())));
    }

    @Test
    void refusesAResendWhenTheUnknownAttemptCarriedAnotherKey() {
        PublicationAttemptedEvent foreignKey = new PublicationAttemptedEvent(ID, WS, CHANNEL, 1,
                AttemptTrigger.INITIAL, "pub_other", CONTENT.hash(), T0, T0.plus(TIMEOUT), null,
                PublicationStep.CREATE_POST, null);
        clientId().given(requested(), foreignKey, unknown(1, T0.plusSeconds(30)),
                        resendDue(1, RetrySafety.CLIENT_ID, T0, null, 1, T0.plusSeconds(30)))
                .when(resend(2, T0.plusSeconds(31)))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED));
    }

    @Test
    void anOtherTriggerAfterAnUnknownCreateStillNeedsAReadBack() {
        clientId().given(requested(), attempted(1, AttemptTrigger.INITIAL, T0), unknown(1, T0.plusSeconds(30)),
                        resendDue(1, RetrySafety.CLIENT_ID, T0, null, 1, T0.plusSeconds(30)))
                .when(new StartAttemptCommand(ID, 2, AttemptTrigger.RETRY, T0.plusSeconds(31), TIMEOUT, false))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED));
    }

    @Test
    void aResendOnAConnectionThatLostItsCredentialsIsRefusedAndNothingIsHeld() {
        // the unknown create keeps waiting for its read-back; a hold would lead to a write without one
        fixture(of(RetrySafety.CLIENT_ID, ChronoUnit.FOREVER.getDuration()),
                new ConnectionHealth((ws, ch) -> Optional.of("token revoked")))
                .given(requested(), attempted(1, AttemptTrigger.INITIAL, T0), unknown(1, T0.plusSeconds(30)),
                        resendDue(1, RetrySafety.CLIENT_ID, T0, null, 1, T0.plusSeconds(30)))
                .when(resend(2, T0.plusSeconds(31)))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED));
    }
}
