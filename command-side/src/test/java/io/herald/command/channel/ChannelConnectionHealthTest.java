package io.herald.command.channel;

import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelAuthLostEvent;
import io.herald.contracts.channel.ChannelAuthRegainedEvent;
import io.herald.contracts.channel.ChannelCapabilitiesProbedEvent;
import io.herald.contracts.channel.ChannelConnectionConfiguredEvent;
import io.herald.contracts.channel.ChannelConnectionId;
import io.herald.adapters.facebook.FacebookSettings;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RecordChannelAuthLostCommand;
import io.herald.contracts.channel.RecordChannelCapabilitiesCommand;
import io.herald.contracts.channel.ChannelTokenExpiringEvent;
import io.herald.contracts.channel.ChannelTokenExpiryRecordedEvent;
import io.herald.contracts.channel.RecordTokenExpiryCommand;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.channel.WarnTokenExpiringCommand;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The connection's side of connection health: auth lost with the provider's reason, regained by a passing probe. */
class ChannelConnectionHealthTest {

    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("fb-main");
    private static final ChannelConnectionId ID = ChannelConnectionId.of(WS, CHANNEL);
    private static final ChannelSettings SETTINGS = new FacebookSettings("page-1", false);
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final String REASON = "Facebook refused the post (code 190, subcode 463): Session has expired.";

    private FixtureConfiguration<ChannelConnection> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(ChannelConnection.class);
    }

    private static ChannelConnectionConfiguredEvent configured(long version) {
        return new ChannelConnectionConfiguredEvent(ID, WS, CHANNEL, ChannelType.of("facebook"), SETTINGS, version, false,
                "admin", T0);
    }

    private static ChannelAuthLostEvent lost(long version) {
        return new ChannelAuthLostEvent(ID, WS, CHANNEL, version, "190/463", REASON, T0.plusSeconds(60));
    }

    private static RecordChannelCapabilitiesCommand probe(long version, boolean publish) {
        return new RecordChannelCapabilitiesCommand(ID, version,
                publish ? Capability.ok() : Capability.unavailable("token rejected"), Capability.ok(),
                RetrySafety.READ_BACK, T0.plusSeconds(120));
    }

    @Test
    void aRefusedTokenTurnsTheConnectionNeedsReauthWithTheProvidersReason() {
        fixture.given(configured(1))
                .when(new RecordChannelAuthLostCommand(ID, 1, "190/463", REASON, T0.plusSeconds(60)))
                .expectSuccessfulHandlerExecution()
                .expectResultMessagePayload(true)
                .expectEvents(lost(1));
    }

    @Test
    void aSecondRefusalAddsNothing() {
        fixture.given(configured(1), lost(1))
                .when(new RecordChannelAuthLostCommand(ID, 1, "190/463", REASON, T0.plusSeconds(90)))
                .expectResultMessagePayload(false)
                .expectNoEvents();
    }

    @Test
    void aRefusalOfOlderCredentialsSaysNothingAboutTheNewOnes() {
        fixture.given(configured(1), configured(2))
                .when(new RecordChannelAuthLostCommand(ID, 1, "190/463", REASON, T0.plusSeconds(60)))
                .expectResultMessagePayload(false)
                .expectNoEvents();
    }

    @Test
    void aPassingProbeAfterNewCredentialsRegainsAuthThenRecordsTheCapabilities() {
        fixture.given(configured(1), lost(1), configured(2))
                .when(probe(2, true))
                .expectEvents(new ChannelAuthRegainedEvent(ID, WS, CHANNEL, 2, T0.plusSeconds(120)),
                        new ChannelCapabilitiesProbedEvent(ID, WS, CHANNEL, 2, Capability.ok(), Capability.ok(),
                                RetrySafety.READ_BACK, T0.plusSeconds(120)));
    }

    @Test
    void theSameCredentialsAcceptedAgainByTheProviderAlsoRegainAuth() {
        fixture.given(configured(1), lost(1))
                .when(probe(1, true))
                .expectEvents(new ChannelAuthRegainedEvent(ID, WS, CHANNEL, 1, T0.plusSeconds(120)),
                        new ChannelCapabilitiesProbedEvent(ID, WS, CHANNEL, 1, Capability.ok(), Capability.ok(),
                                RetrySafety.READ_BACK, T0.plusSeconds(120)));
    }

    @Test
    void aProbeThatCannotPublishLeavesTheConnectionNeedingReauth() {
        fixture.given(configured(1), lost(1), configured(2))
                .when(probe(2, false))
                .expectEvents(new ChannelCapabilitiesProbedEvent(ID, WS, CHANNEL, 2,
                        Capability.unavailable("token rejected"), Capability.ok(), RetrySafety.READ_BACK,
                        T0.plusSeconds(120)));
    }

    @Test
    void aLateProbeOfTheRefusedCredentialsRegainsNothing() {
        fixture.given(configured(1), lost(1), configured(2))
                .when(probe(1, true))
                .expectNoEvents();
    }

    @Test
    void anActiveConnectionsProbeOnlyRecordsCapabilities() {
        fixture.given(configured(1))
                .when(probe(1, true))
                .expectEvents(new ChannelCapabilitiesProbedEvent(ID, WS, CHANNEL, 1, Capability.ok(), Capability.ok(),
                        RetrySafety.READ_BACK, T0.plusSeconds(120)));
    }

    @Test
    void afterRegainingAFreshRefusalLosesAuthAgain() {
        fixture.given(configured(1), lost(1), configured(2),
                        new ChannelAuthRegainedEvent(ID, WS, CHANNEL, 2, T0.plusSeconds(120)))
                .when(new RecordChannelAuthLostCommand(ID, 2, "190/460", REASON, T0.plusSeconds(600)))
                .expectEvents(new ChannelAuthLostEvent(ID, WS, CHANNEL, 2, "190/460", REASON, T0.plusSeconds(600)));
    }

    private static final Instant EXPIRY = T0.plus(java.time.Duration.ofDays(3));

    private static ChannelTokenExpiryRecordedEvent expiry(long version, Instant at) {
        return new ChannelTokenExpiryRecordedEvent(ID, WS, CHANNEL, version, at, T0);
    }

    @Test
    void aKnownExpiryIsRecordedOnce() {
        fixture.given(configured(1))
                .when(new RecordTokenExpiryCommand(ID, 1, EXPIRY, T0))
                .expectEvents(expiry(1, EXPIRY));
        fixture.given(configured(1), expiry(1, EXPIRY))
                .when(new RecordTokenExpiryCommand(ID, 1, EXPIRY, T0))
                .expectNoEvents();
    }

    @Test
    void anExpiryIsWarnedOfOncePerExpiry() {
        fixture.given(configured(1), expiry(1, EXPIRY))
                .when(new WarnTokenExpiringCommand(ID, EXPIRY, T0.plusSeconds(5)))
                .expectEvents(new ChannelTokenExpiringEvent(ID, WS, CHANNEL, EXPIRY, T0.plusSeconds(5)))
                .expectResultMessagePayload(true);
        fixture.given(configured(1), expiry(1, EXPIRY),
                        new ChannelTokenExpiringEvent(ID, WS, CHANNEL, EXPIRY, T0.plusSeconds(5)))
                .when(new WarnTokenExpiringCommand(ID, EXPIRY, T0.plusSeconds(600)))
                .expectNoEvents()
                .expectResultMessagePayload(false);
    }

    @Test
    void aNewTokensExpiryIsWarnedOfAgain() {
        Instant later = EXPIRY.plus(java.time.Duration.ofDays(60));
        fixture.given(configured(1), expiry(1, EXPIRY),
                        new ChannelTokenExpiringEvent(ID, WS, CHANNEL, EXPIRY, T0.plusSeconds(5)), configured(2),
                        expiry(2, later))
                .when(new WarnTokenExpiringCommand(ID, later, T0.plus(java.time.Duration.ofDays(55))))
                .expectEvents(new ChannelTokenExpiringEvent(ID, WS, CHANNEL, later,
                        T0.plus(java.time.Duration.ofDays(55))));
    }

    @Test
    void aWarningAboutAnExpiryThatIsNoLongerTheTokensChangesNothing() {
        fixture.given(configured(1), expiry(1, EXPIRY), configured(2), expiry(2, null))
                .when(new WarnTokenExpiringCommand(ID, EXPIRY, T0.plusSeconds(5)))
                .expectNoEvents()
                .expectResultMessagePayload(false);
    }

    @Test
    void anExpiryOfOlderCredentialsIsNotRecorded() {
        fixture.given(configured(1), configured(2))
                .when(new RecordTokenExpiryCommand(ID, 1, EXPIRY, T0))
                .expectNoEvents();
    }
}
