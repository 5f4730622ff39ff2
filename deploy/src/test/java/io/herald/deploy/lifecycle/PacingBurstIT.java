package io.herald.deploy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.SandboxLoopback;
import io.herald.deploy.process.HeraldProcess;
import io.herald.testsupport.TestDatabase;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * A burst on one Facebook connection: 1,000 publications due in the same second (held while the
 * connection's token had lapsed, released at once by new credentials), on a Page whose
 * sandbox budget allows 200 posts per window (the minute of production scaled to 20 s; Herald's
 * budget for Facebook connections is configured the same, herald.channels.facebook.budget-*).
 * Herald starts attempts within the budget: at most a handful of rate-limit answers reach
 * attempts, every publication succeeds, no 20-second window of the budget holds more attempt
 * starts than the budget allows, and the starts spread over the windows the budget needs. The
 * same with two nodes sharing the budget through PostgreSQL. Everything is read from the outcome
 * (the attempts' start times and failure kinds), nothing from how long Herald took.
 */
// it runs alone, after the other classes: a burst beside their work would measure the machine, not Herald
@Tag("own-jvm")
// the budget only this class's application has: in the shared one, every Facebook connection would start
// nothing in the last quarter of each 20 s window (its calls would reach the provider in the next)
@TestPropertySource(properties = {"herald.channels.facebook.budget-calls=" + PacingBurstIT.CALLS,
        "herald.channels.facebook.budget-window=" + PacingBurstIT.WINDOW_SECONDS + "s"})
class PacingBurstIT extends HeraldIntegrationTest {

    private static final int PUBLICATIONS = 1_000;
    static final int CALLS = 200;
    static final long WINDOW_SECONDS = 20;
    /**
     * Rate-limit answers that may reach attempts: a handful (without pacing the sandbox refuses
     * most of the burst). Herald counts a batch's starts in the window its calls go out in, so
     * none is expected; a call held up for seconds between its batch's commit and the provider
     * can still arrive in the next window.
     */
    private static final int HANDFUL = 5;
    private static final String NODE_KEY = "hs.pacing-burst-system-key-abcdefghijklmnopqrstuvwxyz012345";

    /** One Herald, or two sharing a database, as the test calls them: answers with their status and body. */
    @FunctionalInterface
    private interface Nodes {
        Answer call(int node, String method, String path, String body) throws Exception;
    }

    private record Answer(int status, JsonNode json) {
    }

    @Test
    void aBurstOnOneConnectionStartsWithinItsBudgetAndEveryPublicationSucceeds() throws Exception {
        String ws = newWorkspace("burst");
        Nodes herald = (node, method, path, body) -> {
            Response r = send(method, path, body);
            return new Answer(r.status(), r.body() == null || r.body().isBlank() ? null : r.json());
        };
        check("one node", burst(herald, ws, "77", () -> jdbc.getDataSource().getConnection()));
    }

    @Test
    void twoNodesShareOneConnectionsBudget() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        HeraldProcess nodeA = node(database, "a");
        HeraldProcess nodeB = node(database, "b");
        try {
            // one after the other: the first node migrates the fresh database alone
            nodeA.start();
            nodeB.start();
            String ws = "burst-two-" + System.nanoTime() % 1_000_000;
            nodeA.call(NODE_KEY, "POST", "/api/v1/admin/workspaces", "{\"workspaceId\":\"" + ws
                    + "\",\"name\":\"burst\"}");
            String key = nodeA.call(NODE_KEY, "POST", "/api/v1/workspaces/" + ws + "/keys",
                    "{\"roles\":[\"publisher\",\"operator\",\"admin\"],\"label\":\"burst\"}").get("key").asText();
            List<HeraldProcess> nodes = List.of(nodeA, nodeB);
            Nodes herald = (node, method, path, body) -> {
                HttpResponse<String> r = nodes.get(node % 2).send(key, method, path, body);
                return new Answer(r.statusCode(), r.body() == null || r.body().isBlank() ? null
                        : json.readTree(r.body()));
            };
            check("two nodes", burst(herald, ws, "78", database::connect));
        } finally {
            nodeA.stop();
            nodeB.stop();
        }
    }

    /**
     * The burst: the connection's token lapses before the first post, so every publication is
     * accepted and held, however long the requests take; new credentials then release all 1,000
     * in the same second, early in a budget window.
     */
    private Burst burst(Nodes herald, String ws, String pagePrefix, Database database) throws Exception {
        String page = pagePrefix + (System.nanoTime() % 10_000_000);
        String token = "EAAB-burst-" + page;
        String fresh = token + "-renewed";
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        sandbox("PUT", "/facebook/" + page + "/budget", "{\"calls\":" + CALLS + ",\"windowSeconds\":"
                + WINDOW_SECONDS + ",\"otherAppsPercent\":0}");
        String channel = "/api/v1/workspaces/" + ws + "/channels/fb";
        Answer put = herald.call(0, "PUT", channel, "{\"type\":\"facebook\",\"pageId\":\"" + page
                + "\",\"pageAccessToken\":\"" + token + "\"}");
        assertThat(put.status()).as("channel %s", put).isBetween(200, 201);
        sandbox("POST", "/lapses", "{\"provider\":\"facebook\",\"credential\":\"" + token
                + "\",\"afterPosts\":0,\"kind\":\"EXPIRED\"}");

        ExecutorService senders = Executors.newFixedThreadPool(8);
        try {
            List<Future<Answer>> accepted = new ArrayList<>();
            for (int i = 0; i < PUBLICATIONS; i++) {
                int n = i;
                accepted.add(senders.submit(() -> herald.call(n, "POST", "/api/v1/workspaces/" + ws + "/publications",
                        "{\"calendarEntryId\":\"burst-" + n + "\",\"contentVersion\":1,\"channelId\":\"fb\","
                                + "\"action\":\"publish\",\"content\":{\"body\":\"Burst post " + n + "\"}}")));
            }
            for (Future<Answer> answer : accepted) {
                assertThat(answer.get().status()).as("intake %s", answer.get()).isBetween(200, 202);
            }
        } finally {
            senders.shutdownNow();
        }
        awaitCount(database, ws, "HELD", PUBLICATIONS, Duration.ofSeconds(120));

        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + fresh + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        // early in a window: the release's first starts and their calls fall in the same window
        long now = System.currentTimeMillis();
        long windowMillis = WINDOW_SECONDS * 1000;
        Thread.sleep(windowMillis - Math.floorMod(now, windowMillis) + 100);
        Instant released = Instant.now();
        Answer reconnected = herald.call(1, "PUT", channel, "{\"type\":\"facebook\",\"pageId\":\"" + page
                + "\",\"pageAccessToken\":\"" + fresh + "\"}");
        assertThat(reconnected.status()).as("reconnect %s", reconnected).isEqualTo(200);
        // five windows of the budget; on a busy machine an answer that was not recorded in time (a call that
        // outlived its attempt's deadline, a lost lock race) is read back after the attempt's deadline
        awaitCount(database, ws, "SUCCEEDED", PUBLICATIONS, Duration.ofMinutes(8));
        return burstOf(database, ws, released);
    }

    @FunctionalInterface
    private interface Database {
        Connection connect() throws Exception;
    }

    private static void awaitCount(Database database, String ws, String status, int expected, Duration within)
            throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        int seen = count(database, ws, status);
        while (seen < expected && System.nanoTime() < deadline) {
            Thread.sleep(500);
            seen = count(database, ws, status);
        }
        assertThat(seen).as("publications %s", status).isEqualTo(expected);
    }

    private static int count(Database database, String ws, String status) throws Exception {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT count(*) FROM publication_view WHERE workspace_id = '"
                     + ws + "' AND status = '" + status + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** What the publication view holds about the burst's attempts. */
    private record Burst(int succeeded, List<Instant> starts, int rateLimited) {
    }

    /** Attempts started from the release on (the ones before met the lapsed token). */
    private static Burst burstOf(Database database, String ws, Instant released) throws Exception {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            int succeeded = count(database, ws, "SUCCEEDED");
            List<Instant> starts = new ArrayList<>();
            int rateLimited = 0;
            try (ResultSet rs = statement.executeQuery("SELECT a->>'startedAt', a->>'failureKind' FROM publication_view,"
                    + " jsonb_array_elements(attempts) a WHERE workspace_id = '" + ws + "'")) {
                while (rs.next()) {
                    Instant started = Instant.parse(rs.getString(1));
                    if (started.isBefore(released)) {
                        continue;
                    }
                    starts.add(started);
                    if ("RATE_LIMITED".equals(rs.getString(2))) {
                        rateLimited++;
                    }
                }
            }
            return new Burst(succeeded, starts, rateLimited);
        }
    }

    private static void check(String how, Burst seen) {
        List<Instant> starts = seen.starts().stream().sorted().toList();
        // the budget's windows, as Herald and the sandbox both count them: aligned to the epoch
        java.util.Map<Long, Integer> byWindow = new java.util.TreeMap<>();
        starts.forEach(at -> byWindow.merge(Math.floorDiv(at.getEpochSecond(), WINDOW_SECONDS), 1, Integer::sum));
        int busiest = byWindow.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        Duration spread = starts.isEmpty() ? Duration.ZERO : Duration.between(starts.get(0), starts.get(starts.size() - 1));
        System.out.printf("[pacing-burst] %s: %d succeeded, %d attempts after the release, %d rate-limited, starts per"
                        + " %d s window %s, spread %s%n", how, seen.succeeded(), starts.size(), seen.rateLimited(),
                WINDOW_SECONDS, byWindow.values(), spread);
        assertThat(seen.succeeded()).as("publications succeeded (%s)", how).isEqualTo(PUBLICATIONS);
        assertThat(seen.rateLimited()).as("rate-limit answers that reached attempts (%s)", how)
                .isLessThanOrEqualTo(HANDFUL);
        assertThat(busiest).as("attempt starts in the busiest %d s window (%s)", WINDOW_SECONDS, how)
                .isLessThanOrEqualTo(CALLS);
        assertThat(spread).as("the burst's spread follows the budget (%s)", how)
                .isGreaterThanOrEqualTo(Duration.ofSeconds(WINDOW_SECONDS * (PUBLICATIONS / CALLS - 2)));
    }

    private static HeraldProcess node(TestDatabase database, String name) throws Exception {
        Path log = Path.of("target", "pacing-burst-" + name + ".log");
        Files.deleteIfExists(log);
        return new HeraldProcess(List.of(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                "--herald.security.system-key=" + NODE_KEY,
                "--herald.security.rate-limit.limit-for-period=100000",
                "--herald.channels.facebook.graph-base-url=http://localhost:" + SandboxLoopback.port()
                        + "/sandbox/facebook/v25.0",
                "--herald.channels.facebook.budget-calls=" + CALLS,
                "--herald.channels.facebook.budget-window=" + WINDOW_SECONDS + "s"), log);
    }
}
