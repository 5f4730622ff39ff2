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
import io.herald.contracts.publication.OperatorDecision;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationHeldEvent;
import io.herald.contracts.publication.PublicationReleasedEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.RecordAttemptAuthLostCommand;
import io.herald.contracts.publication.ReleasePublicationCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.hamcrest.Matcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** HELD: a connection without working credentials gets no call; its publications wait and resume. */
class PublicationHeldTest {

    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("li-main");
    private static final PublicationId ID = IdempotencyKeys.publicationId(WS, "entry-7", 1, CHANNEL,
            PublicationAction.PUBLISH);
    private static final Content CONTENT = new Content(null, "Held until new credentials", null);
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final AttemptTrace REFUSED = new AttemptTrace("fp", "urn:li:person:1", T0, true, 401,
            "EXPIRED_ACCESS_TOKEN", null, 80);
    private static final String PROVIDER_REASON = "LinkedIn refused the post (HTTP 401, EXPIRED_ACCESS_TOKEN)";

    private FixtureConfiguration<Publication> fixture;
    /** The connection's reason while it needs new credentials; null while it works. */
    private String authLost;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Publication.class);
        authLost = null;
        fixture.registerInjectableResource(new ConnectionThrottle());
        fixture.registerInjectableResource(new ScriptedEntryOrder());
        fixture.registerInjectableResource(new ConnectionHealth((ws, ch) -> Optional.ofNullable(authLost)));
        fixture.registerInjectableResource(new AutoReattemptPolicy((ws, ch) -> Optional.of(new ChannelConnection(
                ws, ch, ChannelType.of("linkedin"), null, null, false))));
        fixture.registerInjectableResource(SameKeyResendPolicy.never());
        fixture.registerInjectableResource(new RetryPolicy(new PublishingProperties(null, null, null,
                new PublishingProperties.Retry(3, 8, Duration.ofSeconds(2), 2.0, 0.0, Duration.ofMinutes(1), null), null)));
    }

    private static PublicationRequestedEvent requested() {
        return new PublicationRequestedEvent(ID, WS, "entry-7", 1, CHANNEL, ChannelType.of("linkedin"),
                PublicationAction.PUBLISH, CONTENT, CONTENT.hash(), null, T0, "calendar");
    }

    private static PublicationAttemptedEvent attempted(int n, AttemptTrigger trigger, int secondsAfterT0) {
        Instant at = T0.plusSeconds(secondsAfterT0);
        return new PublicationAttemptedEvent(ID, WS, CHANNEL, n, trigger, ID.value(), CONTENT.hash(), at,
                at.plus(TIMEOUT), null, PublicationStep.CREATE_POST, null);
    }

    private static StartAttemptCommand start(int expectedAttemptNo, AttemptTrigger trigger, int secondsAfterT0) {
        return new StartAttemptCommand(ID, expectedAttemptNo, trigger, T0.plusSeconds(secondsAfterT0), TIMEOUT,
                false);
    }

    private static PublicationHeldEvent heldBeforeAnyCall(int secondsAfterT0) {
        return new PublicationHeldEvent(ID, WS, CHANNEL, 0, ConnectionHealth.heldReason(PROVIDER_REASON), null, null,
                T0, T0.plusSeconds(secondsAfterT0));
    }

    private static PublicationHeldEvent heldAfterRefusal(int attemptNo, int secondsAfterT0) {
        return new PublicationHeldEvent(ID, WS, CHANNEL, attemptNo, ConnectionHealth.heldReason(PROVIDER_REASON),
                "EXPIRED_ACCESS_TOKEN", REFUSED, T0, T0.plusSeconds(secondsAfterT0));
    }

    @Test
    void aDuePublicationOnAConnectionThatNeedsNewCredentialsIsHeldWithoutAnAttempt() {
        authLost = PROVIDER_REASON;
        fixture.given(requested())
                .when(start(1, AttemptTrigger.INITIAL, 1))
                .expectEvents(heldBeforeAnyCall(1))
                .expectResultMessagePayloadMatching(refused(Publication.HELD));
    }

    @Test
    void aRetryDueOnSuchAConnectionIsHeldToo() {
        authLost = PROVIDER_REASON;
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, 1),
                        new io.herald.contracts.publication.PublicationFailedEvent(ID, WS, 1,
                                io.herald.contracts.publication.FailureKind.NOT_SENT, null, "connect refused",
                                REFUSED, T0.plusSeconds(5), T0.plusSeconds(3)))
                .when(start(2, AttemptTrigger.RETRY, 5))
                .expectEvents(heldBeforeAnyCall(5))
                .expectResultMessagePayloadMatching(refused(Publication.HELD));
    }

    @Test
    void theProvidersCredentialsRefusalHoldsThePublicationInsteadOfFailingIt() {
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, 1))
                .when(new RecordAttemptAuthLostCommand(ID, 1, "EXPIRED_ACCESS_TOKEN", PROVIDER_REASON, REFUSED,
                        T0.plusSeconds(2)))
                .expectEvents(heldAfterRefusal(1, 2))
                .expectResultMessagePayload(true);
    }

    @Test
    void aStaleCredentialsRefusalChangesNothing() {
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, 1), heldAfterRefusal(1, 2))
                .when(new RecordAttemptAuthLostCommand(ID, 1, "EXPIRED_ACCESS_TOKEN", PROVIDER_REASON, REFUSED,
                        T0.plusSeconds(3)))
                .expectNoEvents()
                .expectResultMessagePayload(false);
    }

    @Test
    void aHeldPublicationIsNeverSent() {
        fixture.given(requested(), heldBeforeAnyCall(1))
                .when(start(1, AttemptTrigger.INITIAL, 2))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(refused(ErrorCode.PUBLICATION_NOT_EXECUTABLE.code()));
    }

    @Test
    void aHeldPublicationCannotBeExecutedByHand() {
        fixture.given(requested(), heldBeforeAnyCall(1))
                .when(new ExecutePublicationCommand(ID, WS, "calendar", T0.plusSeconds(2)))
                .expectException(HeraldRejection.class)
                .expectNoEvents();
    }

    @Test
    void releaseMakesTheNextAttemptDue() {
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, 1), heldAfterRefusal(1, 2))
                .when(new ReleasePublicationCommand(ID, T0.plusSeconds(60)))
                .expectEvents(new PublicationReleasedEvent(ID, WS, CHANNEL, 2, T0.plusSeconds(60)))
                .expectResultMessagePayload(true);
    }

    @Test
    void aReleasedPublicationStartsItsNextAttemptOnce() {
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, 1), heldAfterRefusal(1, 2),
                        new PublicationReleasedEvent(ID, WS, CHANNEL, 2, T0.plusSeconds(60)))
                .when(start(2, AttemptTrigger.RESUMED_AFTER_REAUTH, 61))
                .expectEvents(attempted(2, AttemptTrigger.RESUMED_AFTER_REAUTH, 61))
                .expectResultMessagePayloadMatching(started(2));
    }

    @Test
    void aSecondReleaseChangesNothing() {
        fixture.given(requested(), heldBeforeAnyCall(1),
                        new PublicationReleasedEvent(ID, WS, CHANNEL, 1, T0.plusSeconds(60)))
                .when(new ReleasePublicationCommand(ID, T0.plusSeconds(61)))
                .expectNoEvents()
                .expectResultMessagePayload(false);
    }

    @Test
    void aPublicationThatIsNotHeldIsNotReleased() {
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, 1))
                .when(new ReleasePublicationCommand(ID, T0.plusSeconds(60)))
                .expectNoEvents()
                .expectResultMessagePayload(false);
    }

    @Test
    void anOperatorMayAbandonAHeldPublication() {
        fixture.given(requested(), heldBeforeAnyCall(1))
                .when(new DecidePublicationCommand(ID, WS, OperatorDecision.ABANDON, null, "olga", "not needed",
                        T0.plusSeconds(90)))
                .expectEvents(new PublicationAbandonedEvent(ID, WS, "olga", "not needed", T0.plusSeconds(90)));
    }

    private static Matcher<Object> refused(String code) {
        return predicate(result -> result instanceof AttemptDecision d && d.verdict() == Verdict.REFUSED
                && d.refusal().equals(code));
    }

    private static Matcher<Object> started(int attemptNo) {
        return predicate(result -> result instanceof AttemptDecision d && d.verdict() == Verdict.START
                && d.attemptNo() == attemptNo);
    }
}
