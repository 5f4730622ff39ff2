package io.herald.command.channel;

import io.herald.adapters.linkedin.LinkedInSettings;
import java.util.List;
import io.herald.contracts.channel.ChannelApiVersionExpiringEvent;
import io.herald.contracts.channel.ChannelApiVersionRecordedEvent;
import io.herald.contracts.channel.ChannelApiVersionRetiredEvent;
import io.herald.contracts.channel.ChannelConnectionConfiguredEvent;
import io.herald.contracts.channel.ChannelConnectionId;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RecordApiVersionCommand;
import io.herald.contracts.channel.RecordApiVersionRetiredCommand;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Duration;
import java.time.Instant;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The connection's side of API versions: recorded when they change, warned of once, retired, replaced. */
class ChannelConnectionApiVersionTest {

    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("li-main");
    private static final ChannelConnectionId ID = ChannelConnectionId.of(WS, CHANNEL);
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Instant SUNSET = Instant.parse("2027-01-01T00:00:00Z");
    private static final Instant WARN_FROM = SUNSET.minus(Duration.ofDays(60));
    private static final String REASON = "API version retired; update herald.channels.linkedin.version";

    private FixtureConfiguration<ChannelConnection> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(ChannelConnection.class);
    }

    private static ChannelConnectionConfiguredEvent configured() {
        return new ChannelConnectionConfiguredEvent(ID, WS, CHANNEL, ChannelType.of("linkedin"),
                new LinkedInSettings("urn:li:person:abc", List.of("w_member_social")), 1, false, "admin", T0);
    }

    private static RecordApiVersionCommand version(String version, Instant at) {
        return new RecordApiVersionCommand(ID, version, SUNSET, true, WARN_FROM, at);
    }

    private static ChannelApiVersionRecordedEvent recorded(String version, boolean replacedRetired, Instant at) {
        return new ChannelApiVersionRecordedEvent(ID, WS, CHANNEL, version, SUNSET, true, replacedRetired, at);
    }

    @Test
    void aVersionIsRecordedOnceAndNotWarnedOfBeforeTheWindow() {
        Instant before = WARN_FROM.minusSeconds(1);
        fixture.given(configured())
                .when(version("202601", before))
                .expectResultMessagePayload(false)
                .expectEvents(recorded("202601", false, before));
        fixture.given(configured(), recorded("202601", false, T0))
                .when(version("202601", before))
                .expectResultMessagePayload(false)
                .expectNoEvents();
    }

    @Test
    void aSunsetWithinTheWindowIsWarnedOfOncePerVersion() {
        fixture.given(configured(), recorded("202601", false, T0))
                .when(version("202601", WARN_FROM))
                .expectResultMessagePayload(true)
                .expectEvents(new ChannelApiVersionExpiringEvent(ID, WS, CHANNEL, "202601", SUNSET, WARN_FROM));
        fixture.given(configured(), recorded("202601", false, T0),
                        new ChannelApiVersionExpiringEvent(ID, WS, CHANNEL, "202601", SUNSET, WARN_FROM))
                .when(version("202601", WARN_FROM.plusSeconds(600)))
                .expectResultMessagePayload(false)
                .expectNoEvents();
    }

    @Test
    void aVersionWithoutAKnownSunsetIsNeverWarnedOf() {
        fixture.given(configured())
                .when(new RecordApiVersionCommand(ID, "209912", null, false, null, T0))
                .expectResultMessagePayload(false)
                .expectEvents(new ChannelApiVersionRecordedEvent(ID, WS, CHANNEL, "209912", null, false, false, T0));
    }

    @Test
    void aRetiredVersionIsRecordedOnce() {
        ChannelApiVersionRetiredEvent retired = new ChannelApiVersionRetiredEvent(ID, WS, CHANNEL, "202504",
                "NONEXISTENT_VERSION", REASON, T0);
        fixture.given(configured(), recorded("202504", false, T0))
                .when(new RecordApiVersionRetiredCommand(ID, "202504", "NONEXISTENT_VERSION", REASON, T0))
                .expectResultMessagePayload(true)
                .expectEvents(retired);
        fixture.given(configured(), recorded("202504", false, T0), retired)
                .when(new RecordApiVersionRetiredCommand(ID, "202504", "NONEXISTENT_VERSION", REASON, T0))
                .expectResultMessagePayload(false)
                .expectNoEvents();
    }

    @Test
    void anotherVersionAfterARetiredOneResumesTheConnection() {
        ChannelApiVersionRetiredEvent retired = new ChannelApiVersionRetiredEvent(ID, WS, CHANNEL, "202504",
                "NONEXISTENT_VERSION", REASON, T0);
        Instant later = T0.plusSeconds(3600);
        fixture.given(configured(), recorded("202504", false, T0), retired)
                .when(version("202611", later.minus(Duration.ofDays(400))))
                .expectEvents(recorded("202611", true, later.minus(Duration.ofDays(400))));
        // the same retired version configured again after a restart resumes nothing
        fixture.given(configured(), recorded("202504", false, T0), retired)
                .when(version("202504", later))
                .expectResultMessagePayload(false)
                .expectNoEvents();
    }
}
