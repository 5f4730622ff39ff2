package io.herald.command.publication;

import static org.axonframework.test.matchers.Matchers.predicate;

import io.herald.adapters.port.ChannelConnection;
import io.herald.command.health.ConnectionHealth;
import io.herald.command.publishing.AutoReattemptPolicy;
import io.herald.command.publishing.ConnectionThrottle;
import io.herald.command.publishing.SameKeyResendPolicy;
import io.herald.command.publishing.PublishingProperties;
import io.herald.command.publishing.RetryPolicy;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptDecision.Verdict;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationHeldEvent;
import io.herald.contracts.publication.PublicationReleasedEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.RecordAttemptVersionRetiredCommand;
import io.herald.contracts.publication.ReleasePublicationCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * HELD for the API version: a provider that no longer serves the version Herald sends proves the
 * write did not execute; the publication and every one due on the connection wait (reason
 * {@code api_version}) instead of failing, and resume once another version is configured.
 */
class PublicationApiVersionHeldTest {

    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("li-main");
    private static final PublicationId ID = IdempotencyKeys.publicationId(WS, "entry-9", 1, CHANNEL,
            PublicationAction.PUBLISH);
    private static final Content CONTENT = new Content(null, "Held until a current API version", null);
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final AttemptTrace REFUSED = new AttemptTrace("fp", "urn:li:person:1", T0, true, 426,
            "NONEXISTENT_VERSION", null, 40);
    private static final String REASON = "API version retired; update herald.channels.linkedin.version";

    private FixtureConfiguration<Publication> fixture;
    /** The hold reason of the version this node sends, while the provider refuses it. */
    private String retired;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Publication.class);
        retired = null;
        fixture.registerInjectableResource(new ConnectionThrottle());
        fixture.registerInjectableResource(SameKeyResendPolicy.never());
        fixture.registerInjectableResource(new ScriptedEntryOrder());
        fixture.registerInjectableResource(new ConnectionHealth((ws, ch) -> Optional.empty(),
                (ws, ch, type) -> Optional.ofNullable(retired)));
        fixture.registerInjectableResource(new AutoReattemptPolicy((ws, ch) -> Optional.of(new ChannelConnection(
                ws, ch, ChannelType.of("linkedin"), null, null, false))));
        fixture.registerInjectableResource(new RetryPolicy(new PublishingProperties(null, null, null,
                new PublishingProperties.Retry(3, 8, Duration.ofSeconds(2), 2.0, 0.0, Duration.ofMinutes(1), null), null)));
    }

    private static PublicationRequestedEvent requested() {
        return new PublicationRequestedEvent(ID, WS, "entry-9", 1, CHANNEL, ChannelType.of("linkedin"),
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

    @Test
    void theProvidersVersionRefusalHoldsThePublicationWithReasonApiVersion() {
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, 1))
                .when(new RecordAttemptVersionRetiredCommand(ID, 1, "NONEXISTENT_VERSION", REASON, REFUSED,
                        T0.plusSeconds(2)))
                .expectEvents(new PublicationHeldEvent(ID, WS, CHANNEL, 1, REASON, ConnectionHealth.API_VERSION,
                        REFUSED, T0, T0.plusSeconds(2)))
                .expectResultMessagePayload(true);
    }

    @Test
    void aPublicationDueOnAConnectionWhoseVersionIsRetiredIsHeldWithoutAnAttempt() {
        retired = REASON;
        fixture.given(requested())
                .when(start(1, AttemptTrigger.INITIAL, 1))
                .expectEvents(new PublicationHeldEvent(ID, WS, CHANNEL, 0, REASON, ConnectionHealth.API_VERSION,
                        null, T0, T0.plusSeconds(1)))
                .expectResultMessagePayloadMatching(predicate(result -> result instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED && ConnectionHealth.API_VERSION.equals(d.refusal())));
    }

    @Test
    void aReleasedPublicationIsSentOnceTheVersionWasChanged() {
        PublicationHeldEvent held = new PublicationHeldEvent(ID, WS, CHANNEL, 1, REASON,
                ConnectionHealth.API_VERSION, REFUSED, T0, T0.plusSeconds(2));
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, 1), held)
                .when(new ReleasePublicationCommand(ID, T0.plusSeconds(60)))
                .expectEvents(new PublicationReleasedEvent(ID, WS, CHANNEL, 2, T0.plusSeconds(60)));
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, 1), held,
                        new PublicationReleasedEvent(ID, WS, CHANNEL, 2, T0.plusSeconds(60)))
                .when(start(2, AttemptTrigger.RESUMED_AFTER_REAUTH, 61))
                .expectEvents(attempted(2, AttemptTrigger.RESUMED_AFTER_REAUTH, 61));
    }
}
