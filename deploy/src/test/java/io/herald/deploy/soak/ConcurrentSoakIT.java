package io.herald.deploy.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.process.StoredPublications;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Concurrent load through the whole application: intake, event store, dispatcher, timer rows,
 * projections, all on one connection pool. A connection released twice once showed up here as
 * errors in the pool's statement tracking and a projection that silently skipped an event; this
 * test would show either: every publication must reach SUCCEEDED with exactly its events, and the
 * log must hold no such error.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConcurrentSoakIT extends HeraldIntegrationTest {

    private static final int THREADS = 8;
    private static final int PER_THREAD = 20;

    @Test
    void manyConcurrentPublicationsAllSucceedWithNothingSkippedOrLeaked(CapturedOutput output) throws Exception {
        String ws = newWorkspace("soak");
        String page = "31" + (System.nanoTime() % 10_000_000);
        assertThat(send("POST", "/sandbox/_admin/facebook/tokens", "{\"token\":\"EAAB-soak-" + page
                + "\",\"pageId\":\"" + page + "\",\"kind\":\"PAGE\"}").status()).isBetween(200, 299);
        Response channel = send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb", "{\"type\":\"facebook\","
                + "\"pageId\":\"" + page + "\",\"pageAccessToken\":\"EAAB-soak-" + page + "\"}");
        assertThat(channel.status()).as(channel.toString()).isEqualTo(201);
        String path = "/api/v1/workspaces/" + ws + "/publications";

        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<List<String>>> work = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            work.add(pool.submit(() -> {
                List<String> ids = new ArrayList<>();
                for (int i = 0; i < PER_THREAD; i++) {
                    Response r = send("POST", path, "{\"calendarEntryId\":\"soak-" + thread + "-" + i + "\","
                            + "\"contentVersion\":1,\"channelId\":\"fb\",\"action\":\"publish\","
                            + "\"content\":{\"body\":\"soak " + thread + " " + i + "\"}}");
                    assertThat(r.status()).as(r.toString()).isEqualTo(202);
                    ids.add(r.json().get("publicationId").asText());
                }
                return ids;
            }));
        }
        List<String> ids = new ArrayList<>();
        for (Future<List<String>> f : work) {
            ids.addAll(f.get());
        }
        pool.shutdown();
        int total = THREADS * PER_THREAD;

        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        int succeeded = 0;
        while (succeeded < total && System.nanoTime() < deadline) {
            Thread.sleep(250);
            succeeded = send("GET", "/api/v1/workspaces/" + ws + "/counts", null, null).json()
                    .path("byStatus").path("SUCCEEDED").asInt();
        }
        assertThat(succeeded).as("publications that reached SUCCEEDED").isEqualTo(total);
        Map<String, Long> events = new TreeMap<>();
        jdbc.query("""
                SELECT payload_type, count(*) AS n FROM domain_event_entry
                 WHERE aggregate_identifier IN (SELECT publication_id FROM publication_view WHERE workspace_id = ?)
                 GROUP BY payload_type""", rs -> {
                    String type = rs.getString(1);
                    events.put(type.substring(type.lastIndexOf('.') + 1), rs.getLong(2));
                }, ws);
        long posts = sandboxTruth("facebook", page).size();
        Map<String, Integer> postsByText = new TreeMap<>();
        sandboxTruth("facebook", page).forEach(post -> postsByText.merge(post.get("text").asText(), 1, Integer::sum));
        int duplicates = (int) postsByText.values().stream().filter(n -> n > 1).count();
        StoredPublications stored;
        try (Connection c = jdbc.getDataSource().getConnection()) {
            stored = StoredPublications.read(c, json, ws);
        }
        int lost = (int) ids.stream().filter(id -> stored.requested.getOrDefault(id, 0) != 1).count();
        System.out.printf("[soak] publications=%d posts=%d duplicate_posts=%d lost=%d interrupted_attempts=%d "
                        + "reconciled_interrupted=%d timers_fired_twice_with_effect=%d events=%s%n", total, posts,
                duplicates, lost, stored.interrupted, stored.interruptedReconciled, stored.firedTwiceWithEffect(),
                events);
        assertThat(duplicates).isZero();
        assertThat(lost).isZero();
        assertThat(stored.firedTwiceWithEffect()).isZero();
        assertThat(stored.interruptedReconciled).isEqualTo(stored.interrupted);

        assertThat(ids).doesNotHaveDuplicates().hasSize(total);
        assertThat(events.get("PublicationRequestedEvent")).isEqualTo(total);
        // each publication ends once: succeeded, or an unknown outcome found by read-back
        assertThat(events.getOrDefault("PublicationSucceededEvent", 0L)
                + events.getOrDefault("PublicationReconciledEvent", 0L)).isGreaterThanOrEqualTo(total);
        assertThat(posts).isEqualTo(total);
        assertThat(output.getAll())
                .doesNotContain("ArrayIndexOutOfBoundsException")
                .doesNotContain("Connection is closed")
                .doesNotContain("has already been closed")
                .doesNotContain("EventProcessingException");
    }
}
