package io.herald.query.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.id.WorkspaceId;
import io.herald.query.ReadStore;
import io.herald.testsupport.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The senders' side of the outbox on a real PostgreSQL: claims, leases, order and stale results. */
class WebhookOutboxIT {

    private static final AtomicInteger WORKSPACES = new AtomicInteger();
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    /** Connections of their own, so concurrent claims really race in the database. */
    private final JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(migrated().jdbcUrl()));
    private final WebhookOutbox outbox = new WebhookOutbox(jdbc);
    private WorkspaceId ws;

    /** The shared test database with the query side's migrations applied (by the read store). */
    private static TestDatabase migrated() {
        ReadStore.shared();
        return TestDatabase.shared();
    }

    @BeforeEach
    void freshWorkspace() {
        ws = WorkspaceId.of("outbox-" + WORKSPACES.incrementAndGet() + "-" + System.nanoTime() % 100_000);
        // other workspaces' rows (earlier tests) must not be due for these claims
        jdbc.update("UPDATE webhook_delivery SET next_try_at = next_try_at + interval '100 years' "
                + "WHERE status = 'PENDING'");
    }

    @Test
    void concurrentSendersNeverClaimTheSameDelivery() throws Exception {
        for (int i = 0; i < 60; i++) {
            outbox.insert("msg_race_" + ws.value() + "_" + i, ws, "calendar", "pub_" + i, 1, "publication.succeeded",
                    "{}", NOW);
        }
        Set<String> claimed = ConcurrentHashMap.newKeySet();
        AtomicInteger twice = new AtomicInteger();
        ExecutorService senders = Executors.newFixedThreadPool(6);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> running = new ArrayList<>();
        for (int s = 0; s < 6; s++) {
            running.add(senders.submit(() -> {
                start.await();
                // senders that lose a race claim nothing this round and try again, as a sender's poll does
                for (int round = 0; round < 1_000 && claimed.size() < 60; round++) {
                    for (WebhookOutbox.Claimed c : outbox.claim(NOW, NOW.plusSeconds(60),
                            UUID.randomUUID().toString(), 3)) {
                        if (!claimed.add(c.deliveryId())) {
                            twice.incrementAndGet();
                        }
                    }
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : running) {
            f.get();
        }
        senders.shutdown();
        assertThat(twice.get()).as("deliveries claimed by two senders").isZero();
        assertThat(claimed).hasSize(60);
        assertThat(jdbc.queryForObject("SELECT sum(tries) FROM webhook_delivery WHERE workspace_id = ?", Long.class,
                ws.value())).isEqualTo(60L);
    }

    @Test
    void aPublicationsDeliveriesGoOneAfterAnotherAndALeaseHoldsUntilItEnds() {
        outbox.insert("msg_a_" + ws.value(), ws, "calendar", "pub_x", 2, "publication.failed", "{\"n\":1}", NOW);
        outbox.insert("msg_b_" + ws.value(), ws, "calendar", "pub_x", 2, "publication.needs_decision", "{\"n\":2}",
                NOW);
        outbox.insert("msg_c_" + ws.value(), ws, "calendar", "pub_x", 3, "publication.abandoned", "{\"n\":3}", NOW);
        outbox.insert("msg_other_" + ws.value(), ws, "other-hook", "pub_x", 3, "publication.abandoned", "{}", NOW);

        List<WebhookOutbox.Claimed> first = outbox.claim(NOW, NOW.plusSeconds(60), "lease-1", 10);
        assertThat(first).extracting(WebhookOutbox.Claimed::deliveryId)
                .as("the first of each webhook's deliveries about the publication")
                .containsExactlyInAnyOrder("msg_a_" + ws.value(), "msg_other_" + ws.value());
        assertThat(outbox.claim(NOW.plusSeconds(30), NOW.plusSeconds(90), "lease-2", 10))
                .as("leased, and the later ones wait for it").isEmpty();

        WebhookOutbox.Claimed a = first.stream().filter(c -> c.deliveryId().startsWith("msg_a_")).findFirst()
                .orElseThrow();
        assertThat(outbox.retryAt(a, 500, "answered 500", NOW.plusSeconds(5))).isTrue();
        assertThat(outbox.claim(NOW.plusSeconds(1), NOW.plusSeconds(61), "lease-3", 10))
                .as("a retry keeps its place: the later ones still wait").isEmpty();
        List<WebhookOutbox.Claimed> again = outbox.claim(NOW.plusSeconds(5), NOW.plusSeconds(65), "lease-4", 10);
        assertThat(again).extracting(WebhookOutbox.Claimed::deliveryId).containsExactly("msg_a_" + ws.value());
        assertThat(again.get(0).tries()).isEqualTo(2);
        assertThat(outbox.delivered(a, 200, NOW.plusSeconds(6))).as("a result under an old lease is not recorded")
                .isFalse();
        assertThat(outbox.delivered(again.get(0), 200, NOW.plusSeconds(6))).isTrue();

        List<WebhookOutbox.Claimed> b = outbox.claim(NOW.plusSeconds(7), NOW.plusSeconds(67), "lease-5", 10);
        assertThat(b).extracting(WebhookOutbox.Claimed::deliveryId).containsExactly("msg_b_" + ws.value());
        assertThat(outbox.failed(b.get(0), 410, "answered 410")).isTrue();
        // a sender that died with a delivery: it is due again once its lease ended
        List<WebhookOutbox.Claimed> c = outbox.claim(NOW.plusSeconds(8), NOW.plusSeconds(20), "lease-6", 10);
        assertThat(c).extracting(WebhookOutbox.Claimed::deliveryId).containsExactly("msg_c_" + ws.value());
        assertThat(outbox.claim(NOW.plusSeconds(19), NOW.plusSeconds(40), "lease-7", 10)).isEmpty();
        assertThat(outbox.claim(NOW.plusSeconds(20), NOW.plusSeconds(40), "lease-8", 10))
                .extracting(WebhookOutbox.Claimed::deliveryId).containsExactly("msg_c_" + ws.value());

        assertThat(outbox.page(ws, "calendar", null, null, 10)).extracting(WebhookOutbox.Delivery::status)
                .containsExactly("PENDING", "FAILED", "DELIVERED");
        assertThat(outbox.redeliver(ws, "calendar", "msg_b_" + ws.value(), NOW.plusSeconds(30))).isTrue();
        assertThat(outbox.redeliver(ws, "other-hook", "msg_b_" + ws.value(), NOW.plusSeconds(30)))
                .as("another webhook's delivery").isFalse();
    }

    /**
     * A workspace with thirty deliveries due for a minute and another with one just due: a claim
     * of five takes the newcomer's too. Oldest first over everyone (the claim before workspaces
     * took turns) would take five of the backlog and leave it waiting behind the other 25.
     */
    @Test
    void workspacesTakeTurnsSoOnesBacklogDoesNotStandBeforeAnothersDelivery() {
        WorkspaceId other = WorkspaceId.of(ws.value() + "-other");
        for (int i = 0; i < 30; i++) {
            outbox.insert("msg_flood_" + ws.value() + "_" + i, ws, "calendar", "pub_" + i, 1,
                    "publication.succeeded", "{}", NOW.minusSeconds(60).plusMillis(i));
        }
        outbox.insert("msg_quiet_" + other.value(), other, "calendar", "pub_q", 1, "publication.succeeded", "{}", NOW);

        List<WebhookOutbox.Claimed> claimed = outbox.claim(NOW, NOW.plusSeconds(60), "lease-turns", 5);
        assertThat(claimed).hasSize(5).extracting(WebhookOutbox.Claimed::deliveryId)
                .contains("msg_quiet_" + other.value());
        assertThat(claimed).filteredOn(c -> c.workspaceId().equals(ws)).extracting(WebhookOutbox.Claimed::deliveryId)
                .as("the backlog's oldest first").containsExactlyInAnyOrder("msg_flood_" + ws.value() + "_0",
                        "msg_flood_" + ws.value() + "_1", "msg_flood_" + ws.value() + "_2",
                        "msg_flood_" + ws.value() + "_3");
    }

    /** What a node has open for a workspace counts against its share; the others' deliveries are still claimed. */
    @Test
    void aWorkspaceGetsNoMoreThanItsShareOfTheNodesTries() {
        WorkspaceId other = WorkspaceId.of(ws.value() + "-other");
        for (int i = 0; i < 30; i++) {
            outbox.insert("msg_share_" + ws.value() + "_" + i, ws, "calendar", "pub_" + i, 1,
                    "publication.succeeded", "{}", NOW.minusSeconds(60));
        }
        outbox.insert("msg_quiet_" + other.value(), other, "calendar", "pub_q", 1, "publication.succeeded", "{}", NOW);

        assertThat(outbox.claim(NOW, NOW.plusSeconds(60), "lease-share-1", 20, 8, Map.of(ws, 5), List.of()))
                .extracting(WebhookOutbox.Claimed::workspaceId)
                .as("three more of the busy workspace, and the other's one")
                .containsExactlyInAnyOrder(ws, ws, ws, other);
        assertThat(outbox.claim(NOW, NOW.plusSeconds(60), "lease-share-2", 20, 8, Map.of(ws, 8), List.of()))
                .as("a workspace at its share gets nothing more").isEmpty();
        assertThat(outbox.claim(NOW, NOW.plusSeconds(60), "lease-share-3", 20, 8, Map.of(), List.of()))
                .as("each claim takes at most the share").hasSize(8);
    }

    /**
     * A paused webhook's deliveries are not claimed, the workspace's other webhooks' are; once it is
     * resumed its deliveries about a publication go in their order.
     */
    @Test
    void aPausedWebhooksDeliveriesAreNotClaimedAndKeepTheirOrder() {
        outbox.insert("msg_p1_" + ws.value(), ws, "dead", "pub_x", 1, "publication.failed", "{}", NOW);
        outbox.insert("msg_p2_" + ws.value(), ws, "dead", "pub_x", 2, "publication.abandoned", "{}", NOW);
        outbox.insert("msg_live_" + ws.value(), ws, "alive", "pub_x", 1, "publication.failed", "{}", NOW);
        List<WebhookOutbox.PausedWebhook> paused = List.of(new WebhookOutbox.PausedWebhook(ws, "dead"),
                new WebhookOutbox.PausedWebhook(WorkspaceId.of("elsewhere"), "alive"));

        assertThat(outbox.claim(NOW, NOW.plusSeconds(60), "lease-p1", 20, 8, Map.of(), paused))
                .extracting(WebhookOutbox.Claimed::deliveryId).containsExactly("msg_live_" + ws.value());
        assertThat(outbox.claim(NOW.plusSeconds(1), NOW.plusSeconds(61), "lease-p2", 20, 8, Map.of(), paused))
                .as("still paused").isEmpty();
        assertThat(outbox.claim(NOW.plusSeconds(2), NOW.plusSeconds(62), "lease-p3", 20, 8, Map.of(), List.of()))
                .as("resumed: the first about the publication, the next after it")
                .extracting(WebhookOutbox.Claimed::deliveryId).containsExactly("msg_p1_" + ws.value());
    }
}
