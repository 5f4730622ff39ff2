package io.herald.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Two Herald processes on one PostgreSQL, the way Herald scales out: both take requests, event
 * processors share their segments through the token store, timer rows fire on whichever node's
 * sweep claims them. The second node to start gets its share of every processor's segments
 * from the first. One node is killed with SIGKILL while publications are in flight and is not
 * brought back; the survivor must take over its segments and its timers. Afterwards: every
 * accepted request has exactly one publication, no publication produced two posts at the provider,
 * the event store shows no timer that fired twice with effect, and the survivor holds every segment.
 */
class TwoNodeIT extends HeraldIntegrationTest {

    private static final int PUBLICATIONS = 60;
    private static final String SYSTEM_KEY = "hs.two-node-test-system-key-abcdefghijklmnopqrstuvwxyz0123";
    private static final Set<String> SETTLED = Set.of("SUCCEEDED", "NOT_EXECUTED", "FAILED", "ABANDONED");
    private static final List<String> PROCESSORS = List.of("channel-view", "publication-view",
            "publication-dispatcher");
    /** herald.processing.initial-segments, as the test's database is new. */
    private static final int SEGMENTS = 2;
    /** Two nodes hold half of each processor's segments each. */
    private static final int LEAST_SHARE = SEGMENTS / 2;

    @Test
    void killingOneOfTwoNodesLosesNoRequestPostsNothingTwiceAndFiresNoTimerTwice() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        String page = "66" + (System.nanoTime() % 10_000_000);
        String token = "EAAB-two-node-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        HeraldProcess nodeA = node(database, "a");
        HeraldProcess nodeB = node(database, "b");
        List<HeraldProcess> nodes = List.of(nodeA, nodeB);
        // every provider answer takes a second, so the kill lands while calls are in flight
        sandbox("PUT", "/latency", "{\"millis\":1000}");
        ScheduledExecutorService senders = Executors.newScheduledThreadPool(8);
        try {
            // one after the other: the first node migrates the fresh database alone
            nodeA.start();
            String ownerA = onlyNewNode(database, Set.of());
            nodeB.start();
            String ownerB = onlyNewNode(database, Set.of(ownerA));
            Map<String, String> names = Map.of(ownerA, "a", ownerB, "b");

            // the first node claimed every segment; its fair share drops to half and the second claims the rest
            long balanceStarted = System.nanoTime();
            Map<String, Map<String, Integer>> balanced = awaitSegments(database, Duration.ofSeconds(90),
                    byProcessor -> PROCESSORS.stream().allMatch(p -> {
                        Map<String, Integer> owners = byProcessor.getOrDefault(p, Map.of());
                        return owners.keySet().equals(Set.of(ownerA, ownerB))
                                && owners.values().stream().allMatch(n -> n >= LEAST_SHARE);
                    }));
            System.out.printf("[two-node] balanced after %d ms: segments_by_owner=%s%n",
                    Duration.ofNanos(System.nanoTime() - balanceStarted).toMillis(), named(balanced, names));
            for (String processor : PROCESSORS) {
                assertThat(balanced.get(processor)).as("owners of %s's segments", processor)
                        .containsOnlyKeys(ownerA, ownerB);
                assertThat(balanced.get(processor).values()).as("segments of %s per node", processor)
                        .allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(LEAST_SHARE));
                assertThat(balanced.get(processor).get(ownerA) + balanced.get(processor).get(ownerB))
                        .as("claimed segments of %s", processor).isEqualTo(SEGMENTS);
            }
            String ws = "twonode" + page;
            nodeA.call(SYSTEM_KEY, "POST", "/api/v1/admin/workspaces",
                    "{\"workspaceId\":\"" + ws + "\",\"name\":\"two-node test\"}");
            String key = nodeA.call(SYSTEM_KEY, "POST", "/api/v1/workspaces/" + ws + "/keys",
                    "{\"roles\":[\"publisher\",\"operator\",\"auditor\",\"admin\"],\"label\":\"two-node\"}")
                    .get("key").asText();
            nodeB.call(key, "PUT", "/api/v1/workspaces/" + ws + "/channels/fb",
                    "{\"type\":\"facebook\",\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token + "\"}");

            long providerCallsBefore = providerCalls();
            AtomicInteger acceptedSoFar = new AtomicInteger();
            AtomicInteger acceptedByB = new AtomicInteger();
            List<Future<String>> accepted = new ArrayList<>();
            for (int i = 0; i < PUBLICATIONS; i++) {
                int n = i;
                // spread over six seconds, so requests are still arriving when a node dies
                accepted.add(senders.schedule(() -> sendUntilAccepted(nodes, key, ws, n, acceptedSoFar, acceptedByB),
                        n * 100L, TimeUnit.MILLISECONDS));
            }
            // both nodes run attempts now: kill node a once a third is accepted and the first
            // provider calls are held by the sandbox's latency
            long waitUntil = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while ((acceptedSoFar.get() < PUBLICATIONS / 3 || providerCalls() < providerCallsBefore + 3)
                    && System.nanoTime() < waitUntil) {
                Thread.sleep(20);
            }
            Map<String, Map<String, Integer>> segmentsBeforeKill = segmentsByProcessorAndOwner(database);
            nodeA.kill();
            long killed = System.nanoTime();
            int acceptedAtKill = acceptedSoFar.get();
            System.out.printf("[two-node] SIGKILL node a after %d accepted and %d provider calls; segments_by_owner"
                            + " before: %s%n", acceptedAtKill, providerCalls() - providerCallsBefore,
                    named(segmentsBeforeKill, names));
            // the survivor takes over every segment of every processor once the dead node's claims expire
            Map<String, Map<String, Integer>> afterKill = awaitSegments(database, Duration.ofSeconds(90),
                    byProcessor -> PROCESSORS.stream().allMatch(p -> byProcessor.getOrDefault(p, Map.of())
                            .getOrDefault(ownerB, 0) == SEGMENTS));
            System.out.printf("[two-node] %d ms after the kill: segments_by_owner=%s%n",
                    Duration.ofNanos(System.nanoTime() - killed).toMillis(), named(afterKill, names));
            for (String processor : PROCESSORS) {
                assertThat(afterKill.get(processor)).as("owners of %s's segments after the kill", processor)
                        .containsExactly(Map.entry(ownerB, SEGMENTS));
            }

            Set<String> ids = new TreeSet<>();
            for (Future<String> id : accepted) {
                ids.add(id.get());
            }
            Map<String, JsonNode> views = awaitSettled(nodeB, key, ws, ids);
            Map<String, Integer> postsByText = new TreeMap<>();
            for (JsonNode post : sandboxTruth("facebook", page)) {
                postsByText.merge(post.get("text").asText(), 1, Integer::sum);
            }
            StoredPublications store;
            try (Connection c = database.connect()) {
                store = StoredPublications.read(c, json, null);
            }

            int succeeded = 0;
            int notExecuted = 0;
            for (int i = 0; i < PUBLICATIONS; i++) {
                String id = accepted.get(i).get();
                String status = views.get(id).get("status").asText();
                int posts = postsByText.getOrDefault(text(i), 0);
                if (status.equals("SUCCEEDED")) {
                    succeeded++;
                    assertThat(posts).as("posts of succeeded publication %s", id).isEqualTo(1);
                } else {
                    assertThat(status).as("publication %s", id).isEqualTo("NOT_EXECUTED");
                    notExecuted++;
                    assertThat(posts).as("posts of publication %s, not executed", id).isZero();
                }
            }
            int lost = (int) ids.stream().filter(id -> store.requested.getOrDefault(id, 0) != 1).count();
            int duplicatePosts = (int) postsByText.values().stream().filter(c -> c > 1).count();
            System.out.printf("[two-node] nodes=2 killed=1 accepted=%d accepted_by_b=%d publications=%d lost=%d "
                            + "succeeded=%d not_executed=%d posts=%d duplicate_posts=%d attempts=%d "
                            + "interrupted_attempts=%d reconciled_interrupted=%d blind_retries=%d "
                            + "timers_fired_twice_with_effect=%d "
                            + "(initial_attempts_twice=%d attempt_numbers_twice=%d interrupted_twice=%d "
                            + "conclusive_readbacks_twice=%d) segments_by_owner_after=%s%n",
                    accepted.size(), acceptedByB.get(), views.size(), lost, succeeded, notExecuted,
                    postsByText.values().stream().mapToInt(Integer::intValue).sum(), duplicatePosts,
                    store.attempts, store.interrupted, store.interruptedReconciled, store.blindRetries,
                    store.firedTwiceWithEffect(), store.initialTwice,
                    store.attemptNumberTwice, store.interruptedTwice, store.conclusiveTwice,
                    segmentsByOwner(database));
            assertThat(ids).hasSize(PUBLICATIONS);
            assertThat(views).hasSize(PUBLICATIONS);
            assertThat(lost).isZero();
            assertThat(duplicatePosts).isZero();
            assertThat(store.firedTwiceWithEffect()).isZero();
            assertThat(store.blindRetries).isZero();
            assertThat(store.interruptedReconciled).isEqualTo(store.interrupted);
        } finally {
            senders.shutdownNow();
            nodeA.stop();
            nodeB.stop();
            sandbox("PUT", "/latency", "{\"millis\":0}");
        }
    }

    private static HeraldProcess node(TestDatabase database, String name) throws IOException {
        Path log = Path.of("target", "two-node-" + name + ".log");
        Files.deleteIfExists(log);
        return new HeraldProcess(List.of(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                "--herald.security.system-key=" + SYSTEM_KEY,
                "--herald.security.rate-limit.limit-for-period=100000",
                "--herald.channels.facebook.graph-base-url=http://localhost:" + SandboxLoopback.port()
                        + "/sandbox/facebook/v25.0",
                "--herald.channels.facebook.read-timeout=3s",
                "--herald.publishing.attempt-timeout=8s",
                "--herald.reconciliation.settle-delay=2s",
                "--herald.reconciliation.retry-schedule=2s,4s,8s"), log);
    }

    private static String text(int i) {
        return "Two-node test post number " + i;
    }

    /**
     * The calendar system's side: starts with one node (round-robin), and on any failure sends the
     * same, idempotent request to the other node until one accepts it.
     */
    private String sendUntilAccepted(List<HeraldProcess> nodes, String key, String ws, int i,
                                     AtomicInteger acceptedSoFar, AtomicInteger acceptedByB) throws Exception {
        String body = "{\"calendarEntryId\":\"entry-" + i + "\",\"contentVersion\":1,\"channelId\":\"fb\","
                + "\"action\":\"publish\",\"content\":{\"body\":\"" + text(i) + "\"}}";
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        String last = "nothing";
        for (int tries = 0; System.nanoTime() < deadline; tries++) {
            HeraldProcess node = nodes.get((i + tries) % nodes.size());
            try {
                HttpResponse<String> r = node.send(key, "POST",
                        "/api/v1/workspaces/" + ws + "/publications", body);
                if (r.statusCode() == 200 || r.statusCode() == 202) {
                    acceptedSoFar.incrementAndGet();
                    if (node == nodes.get(1)) {
                        acceptedByB.incrementAndGet();
                    }
                    return json.readTree(r.body()).get("publicationId").asText();
                }
                last = r.statusCode() + " " + r.body();
            } catch (IOException nodeIsDown) {
                last = nodeIsDown.toString();
            }
            Thread.sleep(200);
        }
        throw new AssertionError("publication " + i + " was never accepted; last answer: " + last);
    }

    private Map<String, JsonNode> awaitSettled(HeraldProcess node, String key, String ws, Set<String> ids)
            throws Exception {
        Map<String, JsonNode> views = new HashMap<>();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            for (String id : ids) {
                HttpResponse<String> r = node.send(key, "GET",
                        "/api/v1/workspaces/" + ws + "/publications/" + id, null);
                // a publication the survivor's projection has not reached yet answers 404 for now
                if (r.statusCode() == 200) {
                    views.put(id, json.readTree(r.body()));
                }
            }
            boolean settled = views.size() == ids.size()
                    && views.values().stream().allMatch(v -> SETTLED.contains(v.get("status").asText()));
            if (settled) {
                return views;
            }
            Thread.sleep(500);
        }
        Map<String, Long> byStatus = new TreeMap<>();
        views.values().forEach(v -> byStatus.merge(v.get("status").asText(), 1L, Long::sum));
        throw new AssertionError("publications did not settle: " + byStatus + " of " + ids.size()
                + " (seen " + views.size() + ")");
    }

    private long providerCalls() {
        return send("GET", "/sandbox/_admin/stats", null, null).json().get("requests").asLong();
    }

    /** The one node in {@code herald_node} that is not one of {@code known}: the node that just started. */
    private static String onlyNewNode(TestDatabase database, Set<String> known) throws Exception {
        Set<String> nodes = new TreeSet<>();
        try (Connection c = database.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT node_id FROM herald_node")) {
            while (rs.next()) {
                nodes.add(rs.getString(1));
            }
        }
        nodes.removeAll(known);
        assertThat(nodes).as("nodes that announced themselves besides %s", known).hasSize(1);
        return nodes.iterator().next();
    }

    /** Polls the token store until {@code done} holds for its segments per processor and owner, or time is up. */
    private static Map<String, Map<String, Integer>> awaitSegments(
            TestDatabase database, Duration timeout, Predicate<Map<String, Map<String, Integer>>> done)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Map<String, Integer>> segments = segmentsByProcessorAndOwner(database);
        while (!done.test(segments) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            segments = segmentsByProcessorAndOwner(database);
        }
        return segments;
    }

    /** Per processor, how many of its segments each owner holds (owner "unclaimed": nobody). */
    private static Map<String, Map<String, Integer>> segmentsByProcessorAndOwner(TestDatabase database)
            throws Exception {
        Map<String, Map<String, Integer>> segments = new TreeMap<>();
        try (Connection c = database.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT processor_name, coalesce(owner, 'unclaimed'), count(*)"
                     + " FROM token_entry GROUP BY 1, 2")) {
            while (rs.next()) {
                segments.computeIfAbsent(rs.getString(1), p -> new TreeMap<>()).put(rs.getString(2), rs.getInt(3));
            }
        }
        return segments;
    }

    /** The segment counts with each owner named by its node ("a" or "b") and process id. */
    private static Map<String, Map<String, Integer>> named(Map<String, Map<String, Integer>> segments,
                                                          Map<String, String> names) {
        Map<String, Map<String, Integer>> named = new TreeMap<>();
        segments.forEach((processor, owners) -> owners.forEach((owner, count) -> named
                .computeIfAbsent(processor, p -> new TreeMap<>())
                // owners are "pid@host"; the pid tells the nodes apart
                .put(names.containsKey(owner) ? names.get(owner) + "(" + owner.replaceAll("@.*", "") + ")" : owner,
                        count)));
        return named;
    }

    private static Map<String, Integer> segmentsByOwner(TestDatabase database) throws Exception {
        Map<String, Integer> owners = new TreeMap<>();
        try (Connection c = database.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(owner, 'unclaimed'), count(*) FROM token_entry"
                     + " GROUP BY 1")) {
            while (rs.next()) {
                // owners are "pid@host"; the pid tells the nodes apart
                owners.put(rs.getString(1).replaceAll("@.*", ""), rs.getInt(2));
            }
        }
        return owners;
    }
}
