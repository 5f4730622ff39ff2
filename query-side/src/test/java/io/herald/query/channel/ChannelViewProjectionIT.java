package io.herald.query.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelAuthLostEvent;
import io.herald.contracts.channel.ChannelAuthRegainedEvent;
import io.herald.contracts.channel.ChannelStatus;
import io.herald.contracts.channel.ChannelTokenExpiringEvent;
import io.herald.contracts.channel.ChannelTokenExpiryRecordedEvent;
import io.herald.contracts.channel.ChannelCapabilitiesProbedEvent;
import io.herald.contracts.channel.ChannelConnectionConfiguredEvent;
import io.herald.contracts.channel.ChannelConnectionId;
import io.herald.contracts.channel.ChannelConnectionView;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.FindChannelConnectionsQuery;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.query.AuthorSettings;
import io.herald.query.ReadStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The channel connections view on a real PostgreSQL, fed event objects as the event processor would. */
class ChannelViewProjectionIT {

    private static final WorkspaceId ACME = WorkspaceId.of("acme");
    private static final ChannelId LI = ChannelId.of("li-main");
    private static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");
    private static final ChannelSettings LI_SETTINGS =
            new AuthorSettings("urn:li:person:abc", List.of("w_member_social"));
    private static final Capability NO_READ_BACK = Capability.unavailable("missing r_member_social");

    private final ReadStore store = ReadStore.shared();
    private final ChannelViewRepository repository = new ChannelViewRepository(store.jdbc(), store.objectMapper());
    private final ChannelViewProjection projection = new ChannelViewProjection(repository);
    private final ChannelQueryHandler queries = new ChannelQueryHandler(repository);

    @BeforeEach
    void emptyTables() {
        store.clear();
    }

    @Test
    void aNewConnectionShowsItsSettingsAndThatNothingWasCheckedYet() {
        projection.on(configured(ACME, LI, 1, false, T0), 0);

        assertThat(channels(ACME)).singleElement().satisfies(c -> {
            assertThat(c.workspaceId()).isEqualTo(ACME);
            assertThat(c.channelId()).isEqualTo(LI);
            assertThat(c.type()).isEqualTo(ChannelType.of("linkedin"));
            assertThat(c.settings()).isEqualTo(LI_SETTINGS);
            assertThat(c.autoReattemptAfterNotFound()).isFalse();
            assertThat(c.capabilities().publish().available()).isFalse();
            assertThat(c.capabilities().reconcile().reason()).contains("not checked yet");
            assertThat(c.probedAt()).isNull();
            assertThat(c.updatedAt()).isEqualTo(T0);
        });
    }

    @Test
    void aProbeShowsWhatTheConnectionCanDo() {
        projection.on(configured(ACME, LI, 1, false, T0), 0);
        projection.on(probed(ACME, LI, 1, T0.plusSeconds(5)), 1);

        ChannelConnectionView view = channels(ACME).get(0);
        assertThat(view.capabilities()).isEqualTo(new ChannelConnectionView.Capabilities(Capability.ok(), NO_READ_BACK));
        assertThat(view.retrySafety()).isEqualTo(RetrySafety.NONE);
        assertThat(view.probedAt()).isEqualTo(T0.plusSeconds(5));
        assertThat(view.updatedAt()).isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void changedSettingsWithTheSameCredentialsKeepTheProbe() {
        projection.on(configured(ACME, LI, 1, false, T0), 0);
        projection.on(probed(ACME, LI, 1, T0.plusSeconds(5)), 1);
        projection.on(configured(ACME, LI, 1, true, T0.plusSeconds(10)), 2);

        ChannelConnectionView view = channels(ACME).get(0);
        assertThat(view.autoReattemptAfterNotFound()).isTrue();
        assertThat(view.capabilities().reconcile()).isEqualTo(NO_READ_BACK);
        assertThat(view.probedAt()).isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void newCredentialsVoidTheOldProbeAndALateProbeOfTheOldOnesIsNotShown() {
        projection.on(configured(ACME, LI, 1, false, T0), 0);
        projection.on(probed(ACME, LI, 1, T0.plusSeconds(5)), 1);
        projection.on(configured(ACME, LI, 2, false, T0.plusSeconds(10)), 2);

        assertThat(channels(ACME).get(0).capabilities().reconcile().reason()).contains("not checked yet");

        projection.on(probed(ACME, LI, 1, T0.plusSeconds(11)), 3);
        assertThat(channels(ACME).get(0).capabilities().reconcile().reason()).contains("not checked yet");
        assertThat(channels(ACME).get(0).probedAt()).isNull();

        projection.on(probed(ACME, LI, 2, T0.plusSeconds(12)), 4);
        assertThat(channels(ACME).get(0).capabilities().reconcile()).isEqualTo(NO_READ_BACK);
    }

    @Test
    void deliveringEveryEventAgainChangesNothing() {
        projection.on(configured(ACME, LI, 1, false, T0), 0);
        projection.on(probed(ACME, LI, 1, T0.plusSeconds(5)), 1);
        projection.on(configured(ACME, LI, 2, true, T0.plusSeconds(10)), 2);
        projection.on(configured(ACME, ChannelId.of("fb-main"), 1, false, T0), 0);
        List<Map<String, Object>> once = store.rows("channel_connection_view", "workspace_id, channel_id");

        projection.on(configured(ACME, LI, 1, false, T0), 0);
        projection.on(probed(ACME, LI, 1, T0.plusSeconds(5)), 1);
        projection.on(configured(ACME, LI, 2, true, T0.plusSeconds(10)), 2);
        projection.on(configured(ACME, ChannelId.of("fb-main"), 1, false, T0), 0);

        assertThat(store.rows("channel_connection_view", "workspace_id, channel_id")).isEqualTo(once);
    }

    @Test
    void eachWorkspaceSeesOnlyItsOwnConnections() {
        projection.on(configured(ACME, LI, 1, false, T0), 0);
        projection.on(configured(WorkspaceId.of("globex"), LI, 1, false, T0), 0);
        projection.on(configured(ACME, ChannelId.of("fb-main"), 1, false, T0), 0);

        assertThat(channels(ACME)).extracting(c -> c.channelId().value()).containsExactly("fb-main", "li-main");
        assertThat(channels(WorkspaceId.of("globex"))).hasSize(1);
        assertThat(channels(WorkspaceId.of("initech"))).isEmpty();
    }

    @Test
    void resetClearsTheView() {
        projection.on(configured(ACME, LI, 1, false, T0), 0);

        projection.reset();

        assertThat(store.count("channel_connection_view")).isZero();
    }

    @Test
    void healthShowsNeedsReauthWithTheReasonThenActiveAgainAndTellsTheListenersOnce() {
        List<String> told = new java.util.ArrayList<>();
        ChannelViewProjection withListener = new ChannelViewProjection(repository,
                List.of((type, view, connectionId, sequence) -> told.add(type + " " + view.status() + " "
                        + view.channelId() + " " + sequence)));
        ChannelConnectionId id = ChannelConnectionId.of(ACME, LI);
        withListener.on(configured(ACME, LI, 1, false, T0), 0);
        assertThat(channels(ACME).get(0).status()).isEqualTo(ChannelStatus.ACTIVE);
        assertThat(channels(ACME).get(0).heldPublications()).isZero();

        ChannelAuthLostEvent lost = new ChannelAuthLostEvent(id, ACME, LI, 1, "EXPIRED_ACCESS_TOKEN",
                "LinkedIn rejected the access token", T0.plusSeconds(5));
        withListener.on(lost, 1);
        withListener.on(lost, 1);
        ChannelConnectionView view = channels(ACME).get(0);
        assertThat(view.status()).isEqualTo(ChannelStatus.NEEDS_REAUTH);
        assertThat(view.statusReason()).isEqualTo("LinkedIn rejected the access token");

        withListener.on(configured(ACME, LI, 2, false, T0.plusSeconds(10)), 2);
        assertThat(channels(ACME).get(0).status()).as("new credentials alone do not make it active")
                .isEqualTo(ChannelStatus.NEEDS_REAUTH);
        withListener.on(new ChannelAuthRegainedEvent(id, ACME, LI, 2, T0.plusSeconds(11)), 3);
        view = channels(ACME).get(0);
        assertThat(view.status()).isEqualTo(ChannelStatus.ACTIVE);
        assertThat(view.statusReason()).isNull();
        assertThat(told).containsExactly("channel.needs_reauth NEEDS_REAUTH li-main 1",
                "channel.reauthorized ACTIVE li-main 3");
    }

    @Test
    void aKnownExpiryIsShownAndItsWarningTold() {
        List<String> told = new java.util.ArrayList<>();
        ChannelViewProjection withListener = new ChannelViewProjection(repository,
                List.of((type, view, connectionId, sequence) -> told.add(type + " " + view.tokenExpiresAt())));
        ChannelConnectionId id = ChannelConnectionId.of(ACME, LI);
        Instant expiry = T0.plusSeconds(86_400);
        withListener.on(configured(ACME, LI, 1, false, T0), 0);
        withListener.on(new ChannelTokenExpiryRecordedEvent(id, ACME, LI, 1, expiry, T0), 1);
        assertThat(channels(ACME).get(0).tokenExpiresAt()).isEqualTo(expiry);
        assertThat(told).isEmpty();
        withListener.on(new ChannelTokenExpiringEvent(id, ACME, LI, expiry, T0.plusSeconds(1)), 2);
        assertThat(told).containsExactly("channel.token_expiring " + expiry);
        withListener.on(new ChannelTokenExpiryRecordedEvent(id, ACME, LI, 1, null, T0), 3);
        assertThat(channels(ACME).get(0).tokenExpiresAt()).isNull();
    }

    private List<ChannelConnectionView> channels(WorkspaceId workspace) {
        return queries.handle(new FindChannelConnectionsQuery(workspace));
    }

    private static ChannelConnectionConfiguredEvent configured(WorkspaceId ws, ChannelId channel, long credentialVersion,
                                                               boolean autoReattempt, Instant at) {
        return new ChannelConnectionConfiguredEvent(ChannelConnectionId.of(ws, channel), ws, channel,
                ChannelType.of("linkedin"), LI_SETTINGS, credentialVersion, autoReattempt, "admin", at);
    }

    private static ChannelCapabilitiesProbedEvent probed(WorkspaceId ws, ChannelId channel, long credentialVersion,
                                                         Instant at) {
        return new ChannelCapabilitiesProbedEvent(ChannelConnectionId.of(ws, channel), ws, channel, credentialVersion,
                Capability.ok(), NO_READ_BACK, RetrySafety.NONE, at);
    }
}
