package io.herald.deploy.crash;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.SandboxLoopback;
import io.herald.deploy.process.HeraldProcess;
import io.herald.deploy.process.StoredPublications;
import io.herald.testsupport.TestDatabase;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Herald runs as its own process on PostgreSQL and is killed with SIGKILL, twice, while attempts
 * are in flight; the provider (the sandbox, in this JVM) survives and keeps the ground truth.
 * Afterwards: every accepted request has a publication, no publication produced two posts, every
 * interrupted attempt ended as an unknown outcome reconciled to the ground truth, and no attempt
 * followed an unknown outcome without a NOT_FOUND in between.
 */
class CrashRecoveryIT extends HeraldIntegrationTest {

    private static final int PUBLICATIONS = 40;
    private static final String CRASH_SYSTEM_KEY = "hs.crash-test-system-key-abcdefghijklmnopqrstuvwxyz012345";
    private static final Set<String> SETTLED = Set.of("SUCCEEDED", "NOT_EXECUTED", "FAILED", "ABANDONED");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void killedWhileAttemptsAreInFlightHeraldLosesNothingAndNeverPostsTwice() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        String page = "55" + (System.nanoTime() % 10_000_000);
        String token = "EAAB-crash-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        Path log = Path.of("target", "crash-test-herald.log");
        Files.deleteIfExists(log);
        HeraldProcess herald = new HeraldProcess(List.of(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "--herald.security.system-key=" + CRASH_SYSTEM_KEY,
                "--herald.security.rate-limit.limit-for-period=100000",
                "--herald.channels.facebook.graph-base-url=http://localhost:" + SandboxLoopback.port()
                        + "/sandbox/facebook/v25.0",
                "--herald.channels.facebook.read-timeout=6s",
                "--herald.publishing.attempt-timeout=10s",
                "--herald.reconciliation.settle-delay=2s",
                "--herald.reconciliation.retry-schedule=2s,4s,8s"), log);
        // every answer of the provider takes 4 s (below the read timeout), so the first kill, 2.5 s
        // after the requests start, lands while the first attempts are in flight
        sandbox("PUT", "/latency", "{\"millis\":4000}");
        ExecutorService senders = Executors.newFixedThreadPool(4);
        try {
            herald.start();
            String ws = "crash" + page;
            herald.call(CRASH_SYSTEM_KEY, "POST", "/api/v1/admin/workspaces",
                    "{\"workspaceId\":\"" + ws + "\",\"name\":\"crash test\"}");
            String key = herald.call(CRASH_SYSTEM_KEY, "POST", "/api/v1/workspaces/" + ws + "/keys",
                    "{\"roles\":[\"publisher\",\"operator\",\"auditor\",\"admin\"],\"label\":\"crash\"}")
                    .get("key").asText();
            herald.call(key, "PUT", "/api/v1/workspaces/" + ws + "/channels/fb",
                    "{\"type\":\"facebook\",\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token + "\"}");

            List<Future<String>> accepted = new ArrayList<>();
            for (int i = 0; i < PUBLICATIONS; i++) {
                int n = i;
                accepted.add(senders.submit(() -> sendUntilAccepted(herald, key, ws, n)));
            }
            int kills = 0;
            for (long pause : new long[] {2500, 3500}) {
                Thread.sleep(pause);
                herald.kill();
                kills++;
                System.out.printf("[crash-test] SIGKILL #%d%n", kills);
                herald.start();
            }
            Map<String, Integer> idByText = new HashMap<>();
            Set<String> ids = new java.util.TreeSet<>();
            for (int i = 0; i < PUBLICATIONS; i++) {
                String id = accepted.get(i).get();
                ids.add(id);
                idByText.put(text(i), i);
            }

            Map<String, JsonNode> views = awaitSettled(herald, key, ws, ids);
            Map<String, Integer> postsByText = new TreeMap<>();
            for (JsonNode post : sandboxTruth("facebook", page)) {
                postsByText.merge(post.get("text").asText(), 1, Integer::sum);
            }
            StoredPublications replay;
            try (Connection c = database.connect()) {
                replay = StoredPublications.read(c, json, null);
            }
            int lost = (int) ids.stream().filter(id -> replay.requested.getOrDefault(id, 0) != 1).count();

            int succeeded = 0;
            int notExecuted = 0;
            for (int i = 0; i < PUBLICATIONS; i++) {
                String id = accepted.get(i).get();
                JsonNode view = views.get(id);
                int posts = postsByText.getOrDefault(text(i), 0);
                String status = view.get("status").asText();
                if (status.equals("SUCCEEDED")) {
                    succeeded++;
                    assertThat(posts).as("posts of a succeeded publication %s", id).isEqualTo(1);
                } else {
                    assertThat(status).as("publication %s", id).isEqualTo("NOT_EXECUTED");
                    notExecuted++;
                    assertThat(posts).as("posts of a publication not executed %s", id).isZero();
                }
            }
            int duplicates = (int) postsByText.values().stream().filter(c -> c > 1).count();
            System.out.printf("[crash-test] kills=%d accepted=%d publications=%d lost=%d succeeded=%d not_executed=%d "
                            + "interrupted_attempts=%d reconciled_interrupted=%d posts=%d duplicate_posts=%d "
                            + "attempts_after_unknown_without_not_found=%d timers_fired_twice_with_effect=%d%n",
                    kills, accepted.size(), views.size(), lost, succeeded, notExecuted, replay.interrupted,
                    replay.interruptedReconciled, postsByText.values().stream().mapToInt(Integer::intValue).sum(),
                    duplicates, replay.blindRetries, replay.firedTwiceWithEffect());
            assertThat(views).hasSize(PUBLICATIONS);
            assertThat(lost).isZero();
            assertThat(duplicates).isZero();
            assertThat(replay.blindRetries).isZero();
            assertThat(replay.firedTwiceWithEffect()).isZero();
            assertThat(replay.interrupted).as("attempts in flight when Herald was killed").isPositive();
            assertThat(replay.interruptedReconciled).isEqualTo(replay.interrupted);
            assertThat(idByText).hasSize(PUBLICATIONS);
        } finally {
            senders.shutdownNow();
            herald.stop();
            sandbox("PUT", "/latency", "{\"millis\":0}");
        }
    }

    private static String text(int i) {
        return "Crash test post number " + i;
    }

    /** The calendar system's side: send until Herald accepts, whatever happens to it meanwhile. */
    private String sendUntilAccepted(HeraldProcess herald, String key, String ws, int i) throws Exception {
        String body = "{\"calendarEntryId\":\"entry-" + i + "\",\"contentVersion\":1,\"channelId\":\"fb\","
                + "\"action\":\"publish\",\"content\":{\"body\":\"" + text(i) + "\"}}";
        long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = herald.send(key, "POST",
                        "/api/v1/workspaces/" + ws + "/publications", body);
                if (r.statusCode() == 200 || r.statusCode() == 202) {
                    return json.readTree(r.body()).get("publicationId").asText();
                }
            } catch (IOException herladIsDown) {
                // killed or restarting: the request is idempotent, send it again
            }
            Thread.sleep(300);
        }
        throw new AssertionError("publication " + i + " was never accepted");
    }

    private Map<String, JsonNode> awaitSettled(HeraldProcess herald, String key, String ws, Set<String> ids)
            throws Exception {
        Map<String, JsonNode> views = new HashMap<>();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            for (String id : ids) {
                HttpResponse<String> answer = herald.send(key, "GET", "/api/v1/workspaces/" + ws + "/publications/" + id, null);
                // the view is written after the request is answered: under load it may not hold the row yet
                if (answer.statusCode() == 404) {
                    views.put(id, JSON.createObjectNode());
                    continue;
                }
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                views.put(id, JSON.readTree(answer.body()));
            }
            boolean settled = views.values().stream().allMatch(v -> SETTLED.contains(v.path("status").asText()));
            if (settled) {
                return views;
            }
            Thread.sleep(500);
        }
        Map<String, Long> byStatus = new TreeMap<>();
        views.values().forEach(v -> byStatus.merge(v.path("status").asText("NOT_IN_VIEW"), 1L, Long::sum));
        throw new AssertionError("publications did not settle: " + byStatus);
    }
}
