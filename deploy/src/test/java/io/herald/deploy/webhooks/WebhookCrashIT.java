package io.herald.deploy.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.standardwebhooks.Webhook;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.SandboxLoopback;
import io.herald.deploy.process.HeraldProcess;
import io.herald.testsupport.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Herald runs as its own process and is killed with SIGKILL, twice, while tries are open at a
 * slow receiver (first slower than the try timeout, then just within it) and publications are
 * being attempted. After the restarts every
 * delivery the outbox holds is DELIVERED, the receiver got each of them (once or more: a try cut
 * off by the kill is sent again with the same webhook-id), signed, and the deliveries about one
 * publication first arrived in the order of its events.
 */
class WebhookCrashIT extends HeraldIntegrationTest {

    private static final int PUBLICATIONS = 16;
    private static final String CRASH_SYSTEM_KEY = "hs.webhook-crash-system-key-abcdefghijklmnopqrstuvwxyz01";
    private static final Set<String> SETTLED = Set.of("SUCCEEDED", "NOT_EXECUTED", "FAILED", "ABANDONED");

    @Test
    void killedWhileDeliveringHeraldLosesNoDelivery() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        String page = "77" + (System.nanoTime() % 10_000_000);
        String token = "EAAB-hook-crash-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        WebhookReceiver receiver = new WebhookReceiver();
        // at first it answers after the 2 s try timeout: nothing is delivered before the first kill
        receiver.answer(WebhookReceiver.Answer.slow(3_000));
        receiver.start();
        Path log = Path.of("target", "webhook-crash-herald.log");
        Files.deleteIfExists(log);
        HeraldProcess herald = new HeraldProcess(List.of(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                "--herald.security.system-key=" + CRASH_SYSTEM_KEY,
                "--herald.security.rate-limit.limit-for-period=100000",
                "--herald.outbound.allow-private-networks=true",
                "--herald.channels.facebook.graph-base-url=http://localhost:" + SandboxLoopback.port()
                        + "/sandbox/facebook/v25.0",
                "--herald.publishing.attempt-timeout=10s",
                "--herald.publishing.watchdog-delay=15s",
                "--herald.reconciliation.settle-delay=2s",
                "--herald.reconciliation.retry-schedule=2s,4s,8s",
                "--herald.webhooks.retry-schedule=1s,1s,2s,2s,3s,3s,3s,3s,3s,3s",
                "--herald.webhooks.poll-interval=200ms",
                "--herald.webhooks.timeout=2s",
                // the receiver answers too late on purpose, to hold tries in flight at the kills: that is not
                // an endpoint to pause (pausing has tests of its own)
                "--herald.webhooks.pause-after-timeouts=1000",
                "--herald.webhooks.lease=4s"), log);
        try {
            herald.start();
            String ws = "hookcrash" + page;
            herald.call(CRASH_SYSTEM_KEY, "POST", "/api/v1/admin/workspaces",
                    "{\"workspaceId\":\"" + ws + "\",\"name\":\"webhook crash test\"}");
            String key = herald.call(CRASH_SYSTEM_KEY, "POST", "/api/v1/workspaces/" + ws + "/keys",
                    "{\"roles\":[\"publisher\",\"operator\",\"admin\"],\"label\":\"crash\"}").get("key").asText();
            herald.call(key, "PUT", "/api/v1/workspaces/" + ws + "/channels/fb",
                    "{\"type\":\"facebook\",\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token + "\"}");
            String secret = herald.call(key, "PUT", "/api/v1/workspaces/" + ws + "/webhooks/calendar",
                    "{\"url\":\"" + receiver.url("/hooks") + "\",\"events\":[\"*\"]}").get("secret").asText();
            await("the subscription reaches the projection", () -> count(database,
                    "SELECT count(*) FROM webhook_subscription_view WHERE workspace_id = ?", ws) == 1);

            List<String> ids = new ArrayList<>();
            for (int i = 0; i < PUBLICATIONS; i++) {
                ids.add(herald.call(key, "POST", "/api/v1/workspaces/" + ws + "/publications",
                        "{\"calendarEntryId\":\"hook-entry-" + i + "\",\"contentVersion\":1,\"channelId\":\"fb\","
                                + "\"action\":\"publish\",\"content\":{\"body\":\"Webhook crash post " + i + "\"}}")
                        .get("publicationId").asText());
            }
            for (int kill = 1; kill <= 2; kill++) {
                int arrived = receiver.received().size();
                await("deliveries arriving before kill " + kill, () -> receiver.received().size() > arrived);
                herald.kill();
                System.out.printf("[webhook-crash-test] SIGKILL #%d after %d requests at the receiver%n", kill,
                        receiver.received().size());
                herald.start();
                // then slow but within the timeout: the second kill lands while answers are on their way
                receiver.answer(WebhookReceiver.Answer.slow(1_200));
            }
            receiver.answer(WebhookReceiver.Answer.status(200));

            for (String id : ids) {
                await("publication " + id + " settled", () -> {
                    try {
                        return SETTLED.contains(herald.call(key, "GET", "/api/v1/workspaces/" + ws
                                + "/publications/" + id, null).get("status").asText());
                    } catch (Exception e) {
                        return false;
                    }
                });
            }
            await("every delivery delivered", () -> count(database,
                    "SELECT count(*) FROM webhook_delivery WHERE workspace_id = ? AND status <> 'DELIVERED'", ws) == 0);

            Map<String, String> outboxTypes = new LinkedHashMap<>();
            Map<String, List<String>> outboxOrder = new TreeMap<>();
            try (Connection c = database.connect(); PreparedStatement s = c.prepareStatement("""
                    SELECT delivery_id, publication_id, event_type FROM webhook_delivery WHERE workspace_id = ?
                    ORDER BY publication_id, event_sequence, position""")) {
                s.setString(1, ws);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        outboxTypes.put(rs.getString(1), rs.getString(3));
                        outboxOrder.computeIfAbsent(rs.getString(2), k -> new ArrayList<>()).add(rs.getString(1));
                    }
                }
            }
            Map<String, List<String>> arrivalOrder = new TreeMap<>();
            Map<String, Integer> triesById = new LinkedHashMap<>();
            for (WebhookReceiver.Received r : receiver.received()) {
                new Webhook(secret).verify(r.body(), Map.of("webhook-id", List.of(r.id()),
                        "webhook-timestamp", List.of(r.timestamp()), "webhook-signature", List.of(r.signature())));
                if (triesById.merge(r.id(), 1, Integer::sum) == 1) {
                    JsonNode body = json.readTree(r.body());
                    arrivalOrder.computeIfAbsent(body.at("/data/publicationId").asText(), k -> new ArrayList<>())
                            .add(r.id());
                }
            }
            long duplicates = triesById.values().stream().filter(n -> n > 1).count();
            System.out.printf("[webhook-crash-test] publications=%d deliveries=%d requests=%d delivered_more_than_once=%d"
                    + "%n", ids.size(), outboxTypes.size(), receiver.received().size(), duplicates);
            assertThat(outboxOrder.keySet()).as("every publication reported something").containsAll(ids);
            assertThat(triesById.keySet()).as("every delivery arrived, nothing else did")
                    .containsExactlyInAnyOrderElementsOf(outboxTypes.keySet());
            assertThat(arrivalOrder).as("first arrivals in event order per publication").isEqualTo(outboxOrder);
        } catch (AssertionError | RuntimeException e) {
            dump(database);
            throw e;
        } finally {
            herald.stop();
            receiver.stop();
        }
    }

    /** What the outbox held when the test failed. */
    private static void dump(TestDatabase database) {
        try (Connection c = database.connect(); PreparedStatement s = c.prepareStatement("""
                SELECT delivery_id, event_type, status, tries, next_try_at, lease_token IS NOT NULL AS leased,
                       last_status_code, last_error, now() AS now FROM webhook_delivery ORDER BY position""");
             ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                System.out.printf("[webhook-crash-test] outbox %s %s %s tries=%d next=%s leased=%s code=%s error=%s "
                                + "now=%s%n", rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4),
                        rs.getString(5), rs.getBoolean(6), rs.getString(7), rs.getString(8), rs.getString(9));
            }
        } catch (java.sql.SQLException e) {
            System.out.println("[webhook-crash-test] outbox unreadable: " + e);
        }
    }

    private static long count(TestDatabase database, String sql, String ws) {
        try (Connection c = database.connect(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, ws);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (java.sql.SQLException e) {
            return -1;
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("not reached within 90 s: " + what);
    }
}
