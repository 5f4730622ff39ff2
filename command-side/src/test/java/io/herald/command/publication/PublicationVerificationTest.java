package io.herald.command.publication;

import io.herald.adapters.port.ChannelConnection;
import io.herald.command.health.ConnectionHealth;
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
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.DecidePublicationCommand;
import io.herald.contracts.publication.OperatorDecision;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.PublicationVanishDecidedEvent;
import io.herald.contracts.publication.PublicationVanishedEvent;
import io.herald.contracts.publication.PublicationVerificationDueEvent;
import io.herald.contracts.publication.PublicationVerifiedEvent;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.RecordVerificationCommand;
import io.herald.contracts.publication.StartVerificationCommand;
import io.herald.contracts.publication.VerificationLicence;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The verification after success: read again, still there or gone, and the operator's word on a vanished post. */
class PublicationVerificationTest {

    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("fb-main");
    private static final PublicationId ID = IdempotencyKeys.publicationId(WS, "entry-42", 3, CHANNEL,
            PublicationAction.PUBLISH);
    private static final Content CONTENT = new Content(null, "Hello from Herald", "https://example.org/a");
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Instant DONE = T0.plusSeconds(2);
    private static final Duration DELAY = Duration.ofMinutes(10);
    private static final AttemptTrace TRACE = new AttemptTrace("fp", "page-1", T0, true, 200, null, "trace-1", 120);
    private static final ProviderRef POST = new ProviderRef("page-1_777", "https://www.facebook.com/page-1_777");

    private FixtureConfiguration<Publication> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Publication.class);
        fixture.registerInjectableResource(new ConnectionThrottle());
        fixture.registerInjectableResource(new ScriptedEntryOrder());
        fixture.registerInjectableResource(ConnectionHealth.allActive());
        fixture.registerInjectableResource(new AutoReattemptPolicy((ws, ch) -> Optional.of(new ChannelConnection(
                ws, ch, ChannelType.of("facebook"), null, null, false))));
        fixture.registerInjectableResource(SameKeyResendPolicy.never());
        fixture.registerInjectableResource(new RetryPolicy(new PublishingProperties(null, null, null, null, null)));
    }

    private static PublicationRequestedEvent requested(PublicationAction action) {
        return new PublicationRequestedEvent(ID, WS, "entry-42", 3, CHANNEL, ChannelType.of("facebook"), action,
                CONTENT, CONTENT.hash(), null, T0, "calendar");
    }

    private static PublicationAttemptedEvent attempted() {
        return new PublicationAttemptedEvent(ID, WS, CHANNEL, 1, AttemptTrigger.INITIAL, ID.value(), CONTENT.hash(),
                T0.plusSeconds(1), T0.plusSeconds(121), null, PublicationStep.CREATE_POST, null);
    }

    private static PublicationSucceededEvent succeeded() {
        return new PublicationSucceededEvent(ID, WS, 1, POST, TRACE, DONE);
    }

    private static PublicationVerificationDueEvent due() {
        return new PublicationVerificationDueEvent(ID, WS, 1, DONE.plus(DELAY), DONE);
    }

    private static PublicationVanishedEvent vanished() {
        return new PublicationVanishedEvent(ID, WS, POST, "no post page-1_777 (404)", DONE.plus(DELAY));
    }

    private static DecidePublicationCommand decide(OperatorDecision decision) {
        return new DecidePublicationCommand(ID, WS, decision, null, "ops@acme", "gone from the Page",
                DONE.plus(DELAY).plusSeconds(60));
    }

    @Test
    void aSuccessOnAConnectionThatVerifiesMakesTheReadDue() {
        fixture.given(requested(PublicationAction.PUBLISH), attempted())
                .when(new RecordAttemptSucceededCommand(ID, 1, POST, TRACE, DONE, DELAY))
                .expectEvents(succeeded(), due());
    }

    @Test
    void aSuccessOnAConnectionThatDoesNotVerifyIsNeverReadAgain() {
        fixture.given(requested(PublicationAction.PUBLISH), attempted())
                .when(new RecordAttemptSucceededCommand(ID, 1, POST, TRACE, DONE))
                .expectEvents(succeeded());
        fixture.given(requested(PublicationAction.PUBLISH), attempted(), succeeded())
                .when(new StartVerificationCommand(ID, 1))
                .expectResultMessagePayload(null);
    }

    @Test
    void aDeleteThatSucceededIsNotVerified() {
        PublicationAttemptedEvent delete = new PublicationAttemptedEvent(ID, WS, CHANNEL, 1, AttemptTrigger.INITIAL,
                ID.value(), CONTENT.hash(), T0.plusSeconds(1), T0.plusSeconds(121), null,
                PublicationStep.DELETE_POST, null);
        fixture.given(requested(PublicationAction.DELETE), delete)
                .when(new RecordAttemptSucceededCommand(ID, 1, POST, TRACE, DONE, DELAY))
                .expectEvents(succeeded());
    }

    @Test
    void theOpenVerificationGivesTheLicenceToReadThePost() {
        fixture.given(requested(PublicationAction.PUBLISH), attempted(), succeeded(), due())
                .when(new StartVerificationCommand(ID, 1))
                .expectResultMessagePayload(new VerificationLicence(ID, WS, CHANNEL, "entry-42", 1, POST, CONTENT));
    }

    @Test
    void aPostStillThereIsVerifiedAndTheStatusStays() {
        Instant at = DONE.plus(DELAY);
        fixture.given(requested(PublicationAction.PUBLISH), attempted(), succeeded(), due())
                .when(new RecordVerificationCommand(ID, 1, true, POST, "the post exists", at))
                .expectEvents(new PublicationVerifiedEvent(ID, WS, POST, "the post exists", at))
                .expectResultMessagePayload(true);
    }

    @Test
    void aVerifiedPublicationIsNotReadAgainAndALateReadChangesNothing() {
        Instant at = DONE.plus(DELAY);
        fixture.given(requested(PublicationAction.PUBLISH), attempted(), succeeded(), due(),
                        new PublicationVerifiedEvent(ID, WS, POST, "the post exists", at))
                .when(new RecordVerificationCommand(ID, 1, false, POST, "gone", at.plusSeconds(1)))
                .expectNoEvents()
                .expectResultMessagePayload(false);
        fixture.given(requested(PublicationAction.PUBLISH), attempted(), succeeded(), due(),
                        new PublicationVerifiedEvent(ID, WS, POST, "the post exists", at))
                .when(new StartVerificationCommand(ID, 1))
                .expectResultMessagePayload(null);
    }

    @Test
    void aPostGoneIsVanishedWithWhatTheProviderSaid() {
        fixture.given(requested(PublicationAction.PUBLISH), attempted(), succeeded(), due())
                .when(new RecordVerificationCommand(ID, 1, false, POST, "no post page-1_777 (404)", DONE.plus(DELAY)))
                .expectEvents(vanished());
    }

    @Test
    void confirmRemovedEndsTheDecision() {
        fixture.given(requested(PublicationAction.PUBLISH), attempted(), succeeded(), due(), vanished())
                .when(decide(OperatorDecision.CONFIRM_REMOVED))
                .expectEvents(new PublicationVanishDecidedEvent(ID, WS, OperatorDecision.CONFIRM_REMOVED, null,
                        "ops@acme", "gone from the Page", DONE.plus(DELAY).plusSeconds(60)));
    }

    @Test
    void republishRecordsTheIntentForTheNextContentVersion() {
        fixture.given(requested(PublicationAction.PUBLISH), attempted(), succeeded(), due(), vanished())
                .when(decide(OperatorDecision.REPUBLISH))
                .expectEvents(new PublicationVanishDecidedEvent(ID, WS, OperatorDecision.REPUBLISH, 4L,
                        "ops@acme", "gone from the Page", DONE.plus(DELAY).plusSeconds(60)));
    }

    @Test
    void aVanishedPostTakesNoOtherDecisionAndIsNeverPostedAgainOnItsOwn() {
        fixture.given(requested(PublicationAction.PUBLISH), attempted(), succeeded(), due(), vanished())
                .when(decide(OperatorDecision.REATTEMPT))
                .expectException(HeraldRejection.class);
        fixture.given(requested(PublicationAction.PUBLISH), attempted(), succeeded(), due(), vanished(),
                        new PublicationVanishDecidedEvent(ID, WS, OperatorDecision.CONFIRM_REMOVED, null, "ops@acme",
                                null, DONE.plus(DELAY).plusSeconds(60)))
                .when(decide(OperatorDecision.CONFIRM_REMOVED))
                .expectException(HeraldRejection.class);
    }

    @Test
    void confirmRemovedIsRefusedWhereNothingVanished() {
        fixture.given(requested(PublicationAction.PUBLISH), attempted(), succeeded(), due())
                .when(decide(OperatorDecision.CONFIRM_REMOVED))
                .expectException(HeraldRejection.class);
    }
}
