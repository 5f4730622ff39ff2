package io.herald.deploy.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.audit.PublicationScenarios;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Webhooks shared fairly between workspaces, on the real application: the cap on a workspace's
 * subscriptions, endpoints that stop answering paused and resumed, and the figure that matters,
 * another workspace's delivery latency while one workspace floods endpoints that never answer.
 * The test configuration tries every 200 ms, times a try out after 2 s and retries after 1 s;
 * the per-workspace share (8 tries open per node), the node's 64 and the pause after 5 tries in a
 * row are the defaults.
 */
class WebhookFairnessIT extends HeraldIntegrationTest {

    private static final Logger log = LoggerFactory.getLogger(WebhookFairnessIT.class);

    /** Below this, a latency is noise of the poll (200 ms here, 1 s by default) and of the projection. */
    private static final Duration LATENCY_FLOOR = Duration.ofMillis(1_500);
    private static final int SAMPLES = 3;

    @Autowired
    CommandGateway commands;

    private String hooks(String ws) {
        return "/api/v1/workspaces/" + ws + "/webhooks";
    }

    /**
     * One workspace has 20 subscriptions (the most it may have) whose endpoint accepts connections
     * and never answers, and 800 deliveries due for them; another workspace's deliveries (a real
     * publication each, sent to a receiver that answers at once) arrive within twice their latency
     * when the application was idle, measured first in this test, or within
     * {@link #LATENCY_FLOOR}, whichever is longer.
     * <p>
     * Why this can fail: with the claim as it was (oldest due first over every workspace, no share
     * per workspace) the flood's 800 deliveries, all older than the other workspace's, would be
     * claimed first and fill the node's 64 slots; each try holds its slot for the 2 s timeout, so the
     * node gets through about 32 a second and the other workspace's delivery would wait behind
     * the 700 or so still due: many seconds, far above 2 × idle or the floor. Run once with the claim
     * and the sender as they were, this test measured 0.4 to 1.0 s idle and 38.5 to 40.6 s under the
     * flood (bound 2.1 s), and failed; with them as they are, 0.3 to 0.7 s under the flood. Either
     * half of the fix alone falls short too: turns without a share still let the flood hold all 64
     * slots (the other waits for one to free, up to the timeout); a share without turns leaves the
     * other workspace's delivery behind 800 older rows in every claim.
     * <p>
     * The black hole counts the connections open at once: never more than the workspace's share
     * (8), and the flood goes on while the samples are taken (fewer than its 20 subscriptions
     * paused). At the end every flood subscription is paused, and then no connection is open.
     */
    @Test
    void anotherWorkspacesDeliveriesStayWithinTwiceTheirIdleLatencyWhileOneFloodsEndpointsThatNeverAnswer()
            throws Exception {
        String quiet = newWorkspace("hooks-quiet");
        facebookChannel(quiet, "fb-main", "EAAB-token-quiet");
        WebhookReceiver receiver = new WebhookReceiver();
        receiver.start();
        String flood = newWorkspace("hooks-flood");
        try (BlackHole hole = new BlackHole()) {
            put(quiet, "calendar", receiver.url("/hooks"), "[\"publication.succeeded\"]", 201);
            awaitSubscribed(quiet, "calendar");
            PublicationScenarios drive = new PublicationScenarios(commands);

            List<Long> idle = new ArrayList<>();
            for (int i = 0; i < SAMPLES; i++) {
                idle.add(latencyMillis(quiet, "idle-" + i, drive, receiver));
            }

            for (int i = 0; i < 20; i++) {
                put(flood, "hole-" + i, hole.url("/hook-" + i), "[\"*\"]", 201);
            }
            jdbc.update("""
                    INSERT INTO webhook_delivery (delivery_id, workspace_id, webhook_id, publication_id, event_sequence,
                        event_type, body, status, next_try_at, created_at)
                    SELECT 'msg_flood_' || ? || '_' || h || '_' || p, ?, 'hole-' || h, 'pub_flood_' || p, 1,
                        'publication.succeeded', '{"type":"publication.succeeded"}', 'PENDING', now(), now()
                    FROM generate_series(0, 19) h, generate_series(0, 39) p""", flood, flood);
            await("the flood holds its share of the node's tries", () -> hole.open() >= 8);

            List<Long> flooded = new ArrayList<>();
            for (int i = 0; i < SAMPLES; i++) {
                flooded.add(latencyMillis(quiet, "flooded-" + i, drive, receiver));
            }
            long pausedDuringSamples = pausedCount(flood);

            log.info("webhook latency of another workspace: idle {} ms, during the flood {} ms", idle, flooded);
            long bound = Math.max(2 * idle.stream().mapToLong(Long::longValue).max().orElseThrow(),
                    LATENCY_FLOOR.toMillis());
            assertThat(flooded).as("latencies (ms) under the flood; idle they were %s, the bound is %d ms", idle, bound)
                    .allSatisfy(latency -> assertThat(latency).isLessThanOrEqualTo(bound));
            assertThat(pausedDuringSamples).as("the flood was still going while the samples were taken")
                    .isLessThan(20);
            assertThat(hole.maxOpen()).as("connections the flood had open at once (its share per node)")
                    .isBetween(8, 8);

            await("every flood endpoint paused", () -> pausedCount(flood) == 20);
            JsonNode listed = send("GET", hooks(flood), null).json();
            assertThat(listed.at("/items/0/paused").asBoolean()).isTrue();
            assertThat(listed.at("/items/0/pausedReason").asText()).contains("in a row").contains("no answer");
            await("no slot held by a paused endpoint", () -> hole.open() == 0);
            long accepted = hole.accepted();
            Thread.sleep(1_500);
            assertThat(hole.accepted()).as("paused: not tried again").isEqualTo(accepted);
            assertThat(jdbc.queryForObject("SELECT count(*) FROM webhook_delivery WHERE workspace_id = ? "
                    + "AND status = 'PENDING'", Long.class, flood)).as("held back, not failed").isEqualTo(800L);
        } finally {
            receiver.stop();
            // the flood's deliveries would otherwise wait for the tests that come after
            jdbc.update("UPDATE webhook_delivery SET status = 'FAILED' WHERE workspace_id = ? AND status = 'PENDING'",
                    flood);
        }
    }

    /**
     * Nineteen subscriptions, then two PUTs of new ones at the same moment: one is created, the
     * other refused 409 {@code limit_reached} with nothing stored (no row, no event). Changing an
     * existing one at the limit is still allowed, and deleting one makes room.
     */
    @Test
    void aSubscriptionBeyondTheWorkspacesTwentiethIsRefusedEvenWhenTwoArriveTogether() throws Exception {
        String ws = newWorkspace("hooks-cap");
        assertThat(send("GET", hooks(ws), null).status()).isEqualTo(200);
        for (int i = 0; i < 19; i++) {
            put(ws, "hook-" + i, "https://calendar.example/hooks/" + i, "[\"*\"]", 201);
        }
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService two = Executors.newFixedThreadPool(2);
        List<Future<Response>> racing = new ArrayList<>();
        for (String id : List.of("late-a", "late-b")) {
            racing.add(two.submit(() -> {
                start.await();
                return send("PUT", hooks(ws) + "/" + id,
                        "{\"url\":\"https://calendar.example/hooks/" + id + "\",\"events\":[\"*\"]}");
            }));
        }
        start.countDown();
        List<Response> answers = new ArrayList<>();
        for (Future<Response> answer : racing) {
            answers.add(answer.get());
        }
        two.shutdown();
        assertThat(answers).extracting(Response::status).as(answers.toString()).containsExactlyInAnyOrder(201, 409);
        Response refused = answers.stream().filter(r -> r.status() == 409).findFirst().orElseThrow();
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.json().get("code").asText()).isEqualTo("limit_reached");
        assertThat(refused.json().get("detail").asText()).contains("20");
        String refusedId = answers.get(0).status() == 409 ? "late-a" : "late-b";
        assertThat(jdbc.queryForObject("SELECT count(*) FROM webhook_subscription WHERE workspace_id = ? "
                + "AND NOT deleted", Long.class, ws)).isEqualTo(20L);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM webhook_subscription WHERE workspace_id = ? "
                + "AND webhook_id = ?", Long.class, ws, refusedId)).isZero();
        assertThat(eventCount("whk_" + ws + "/" + refusedId)).isZero();
        assertThat(send("GET", hooks(ws), null).json().get("items")).hasSize(20);

        put(ws, "hook-0", "https://calendar.example/hooks/changed", "[\"publication.failed\"]", 200);
        put(ws, "one-more", "https://calendar.example/hooks/more", "[\"*\"]", 409);
        assertThat(send("DELETE", hooks(ws) + "/hook-1", null).status()).isEqualTo(204);
        put(ws, "one-more", "https://calendar.example/hooks/more", "[\"*\"]", 201);
    }

    /**
     * A receiver that is down (every connection refused): after 5 tries in a row the subscription is
     * paused, shown so in the list, and its deliveries stay PENDING without further tries. An admin's
     * resume sends them; a PUT resumes too. An operator may see a pause but not resume it.
     */
    @Test
    void anEndpointThatStopsAnsweringIsPausedShownAndResumedByAnAdminOrAPut() throws Exception {
        String ws = newWorkspace("hooks-pause");
        WebhookReceiver receiver = new WebhookReceiver();
        String body = "{\"url\":\"" + receiver.url("/hooks") + "\",\"events\":[\"*\"]}";
        Response created = send("PUT", hooks(ws) + "/calendar", body);
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("paused").asBoolean()).isFalse();
        assertThat(created.json().has("pausedAt")).isFalse();

        insertDeliveries(ws, "calendar", "first", 6);
        await("paused", () -> listed(ws).path("paused").asBoolean());
        JsonNode paused = listed(ws);
        assertThat(paused.path("pausedAt").asText()).isNotBlank();
        assertThat(paused.path("pausedReason").asText()).startsWith("5 tries in a row got no answer");
        long tries = triesOf(ws);
        Thread.sleep(1_500);
        assertThat(triesOf(ws)).as("not tried while paused").isEqualTo(tries);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM webhook_delivery WHERE workspace_id = ? "
                + "AND status = 'PENDING'", Long.class, ws)).isEqualTo(6L);

        String operator = createKey(ws, List.of("operator"), "operator");
        assertThat(sendAs(operator, "GET", hooks(ws), null, null, Map.of()).status()).isEqualTo(200);
        assertThat(sendAs(operator, "POST", hooks(ws) + "/calendar/resume", null, null, Map.of()).status())
                .isEqualTo(403);
        assertThat(send("POST", hooks(ws) + "/nope/resume", null).status()).isEqualTo(404);

        receiver.start();
        Response resumed = send("POST", hooks(ws) + "/calendar/resume", null);
        assertThat(resumed.status()).as(resumed.toString()).isEqualTo(200);
        assertThat(resumed.json().get("paused").asBoolean()).isFalse();
        assertThat(resumed.json().has("pausedReason")).isFalse();
        await("every held delivery sent after the resume", () -> jdbc.queryForObject(
                "SELECT count(*) FROM webhook_delivery WHERE workspace_id = ? AND status = 'DELIVERED'", Long.class,
                ws) == 6);

        receiver.stop();
        insertDeliveries(ws, "calendar", "second", 6);
        await("paused again", () -> listed(ws).path("paused").asBoolean());
        receiver.start();
        Response put = send("PUT", hooks(ws) + "/calendar", body);
        assertThat(put.status()).as(put.toString()).isEqualTo(200);
        assertThat(put.json().get("paused").asBoolean()).isFalse();
        assertThat(listed(ws).path("paused").asBoolean()).isFalse();
        await("sent after the PUT", () -> jdbc.queryForObject(
                "SELECT count(*) FROM webhook_delivery WHERE workspace_id = ? AND status = 'DELIVERED'", Long.class,
                ws) == 12);
        receiver.stop();
    }

    private void put(String ws, String webhookId, String url, String events, int expected) {
        Response r = send("PUT", hooks(ws) + "/" + webhookId, "{\"url\":\"" + url + "\",\"events\":" + events + "}");
        assertThat(r.status()).as(webhookId + " -> " + r).isEqualTo(expected);
    }

    private JsonNode listed(String ws) {
        return send("GET", hooks(ws), null).json().at("/items/0");
    }

    private long triesOf(String ws) {
        return jdbc.queryForObject("SELECT sum(tries) FROM webhook_delivery WHERE workspace_id = ?", Long.class, ws);
    }

    private long pausedCount(String ws) {
        return jdbc.queryForObject("SELECT count(*) FROM webhook_subscription WHERE workspace_id = ? "
                + "AND paused_at IS NOT NULL", Long.class, ws);
    }

    /** Deliveries about publications of their own, so none waits for another (the order rule). */
    private void insertDeliveries(String ws, String webhookId, String prefix, int count) {
        jdbc.update("""
                INSERT INTO webhook_delivery (delivery_id, workspace_id, webhook_id, publication_id, event_sequence,
                    event_type, body, status, next_try_at, created_at)
                SELECT 'msg_' || ? || '_' || ? || '_' || p, ?, ?, 'pub_' || ? || '_' || p, 1,
                    'publication.succeeded', '{"type":"publication.succeeded"}', 'PENDING', now(), now()
                FROM generate_series(1, ?) p""", ws, prefix, ws, webhookId, prefix, count);
    }

    /** From the publication's success (the event) to its delivery's arrival at the receiver. */
    private long latencyMillis(String ws, String entry, PublicationScenarios drive, WebhookReceiver receiver)
            throws InterruptedException {
        String id = requestScheduled(ws, entry);
        int before = receiver.received().size();
        int attempt = drive.startAttempt(id);
        long start = System.nanoTime();
        drive.succeed(id, attempt);
        await("the delivery of " + entry, () -> receiver.received().size() > before);
        return Duration.ofNanos(System.nanoTime() - start).toMillis();
    }

    private String requestScheduled(String ws, String entry) {
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                PublicationScenarios.scheduledRequest(entry, 1, "fb-main", "Hooks " + entry));
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        String id = created.json().get("publicationId").asText();
        awaitJson("/api/v1/workspaces/" + ws + "/publications/" + id, v -> true);
        return id;
    }

    private void awaitSubscribed(String ws, String webhookId) throws InterruptedException {
        await("the subscription reaches the projection", () -> jdbc.queryForObject(
                "SELECT count(*) FROM webhook_subscription_view WHERE workspace_id = ? AND webhook_id = ?",
                Long.class, ws, webhookId) == 1);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("not reached within 60 s: " + what);
    }

    /**
     * An endpoint that accepts every connection and never answers: it reads what arrives and
     * throws it away until the sender gives up and closes. Counts the connections open at once.
     */
    private static final class BlackHole implements AutoCloseable {

        private final ServerSocket server;
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private final AtomicInteger open = new AtomicInteger();
        private final AtomicInteger maxOpen = new AtomicInteger();
        private final AtomicInteger accepted = new AtomicInteger();
        private final ExecutorService threads = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "black-hole");
            thread.setDaemon(true);
            return thread;
        });

        BlackHole() {
            try {
                server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            threads.execute(this::acceptAll);
        }

        String url(String path) {
            return "http://127.0.0.1:" + server.getLocalPort() + path;
        }

        int open() {
            return open.get();
        }

        int maxOpen() {
            return maxOpen.get();
        }

        int accepted() {
            return accepted.get();
        }

        private void acceptAll() {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    sockets.add(socket);
                    accepted.incrementAndGet();
                    maxOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
                    threads.execute(() -> swallow(socket));
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private void swallow(Socket socket) {
            byte[] buffer = new byte[8192];
            try (InputStream in = socket.getInputStream()) {
                while (in.read(buffer) >= 0) {
                    // never answered
                }
            } catch (IOException gone) {
                // the sender gave up
            } finally {
                open.decrementAndGet();
                sockets.remove(socket);
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket socket : sockets) {
                socket.close();
            }
            threads.shutdownNow();
        }
    }
}
