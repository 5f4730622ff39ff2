package io.herald.deploy.database;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.SandboxLoopback;
import io.herald.deploy.process.HeraldProcess;
import io.herald.testsupport.TestDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Herald runs as its own process with a TCP relay between it and PostgreSQL. Under a steady load of
 * publication requests the relay goes silent for 60 s (every byte held, nothing closed or reset:
 * a partition, a stalled proxy), and later the server refuses every connection for 10 s (too many
 * clients). During either, readiness answers 503 DOWN within 2 s and intake answers 503
 * {@code unavailable} with {@code Retry-After} instead of hanging or answering 500; afterwards
 * readiness is UP again within 60 s by itself, and every publication the calendar system sent (it
 * sends a refused one again, as a client does) is published exactly once.
 */
class SilentDatabaseIT extends HeraldIntegrationTest {

    private static final Duration SILENCE = Duration.ofSeconds(60);
    private static final Duration REFUSAL = Duration.ofSeconds(10);
    /** The watch needs two failed checks of a second each; the probes' own checks count too. */
    private static final Duration NOTICED = Duration.ofSeconds(5);
    private static final String SYSTEM = "hs.silent-db-test-system-key-abcdefghijklmnopqrstuvwxyz0123";
    private static final int SENDERS = 4;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One intake request as the calendar system saw it; times in nanoseconds of {@link System#nanoTime()}. */
    private record Sent(int entry, long start, long end, int status, String retryAfter, String code) {
        long millis() {
            return (end - start) / 1_000_000;
        }
    }

    /** One readiness probe. */
    private record Probe(long start, long millis, int status, String body) {
    }

    private final ConcurrentLinkedQueue<Sent> sent = new ConcurrentLinkedQueue<>();
    private final Map<Integer, String> accepted = new ConcurrentHashMap<>();
    private final AtomicInteger nextEntry = new AtomicInteger();
    private volatile boolean stopping;

    @Test
    void aSilentOrRefusingDatabaseIsAnsweredWithinBoundsAndNothingIsLostOrPublishedTwice() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        URI server = URI.create(database.jdbcUrl().substring("jdbc:".length()));
        String page = "77" + (System.nanoTime() % 10_000_000);
        String token = "EAAB-silent-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        Path log = Path.of("target", "silent-database-herald.log");
        Files.deleteIfExists(log);
        ExecutorService senders = Executors.newFixedThreadPool(SENDERS);
        try (DatabaseRelay relay = new DatabaseRelay(server.getHost(), server.getPort())) {
            String url = "jdbc:postgresql://127.0.0.1:" + relay.port() + server.getRawPath()
                    + (server.getRawQuery() == null ? "" : "?" + server.getRawQuery());
            HeraldProcess herald = new HeraldProcess(List.of(
                    "--spring.datasource.url=" + url,
                    "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                    "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                    "--herald.security.system-key=" + SYSTEM,
                    "--herald.security.rate-limit.limit-for-period=100000",
                    "--herald.channels.facebook.graph-base-url=http://localhost:" + SandboxLoopback.port()
                            + "/sandbox/facebook/v25.0",
                    "--herald.channels.facebook.read-timeout=6s",
                    "--herald.publishing.attempt-timeout=10s",
                    "--herald.reconciliation.settle-delay=2s",
                    "--herald.reconciliation.retry-schedule=2s,4s,8s"), log);
            try {
                herald.start();
                String ws = "silent" + page;
                herald.call(SYSTEM, "POST", "/api/v1/admin/workspaces",
                        "{\"workspaceId\":\"" + ws + "\",\"name\":\"silent database test\"}");
                String key = herald.call(SYSTEM, "POST", "/api/v1/workspaces/" + ws + "/keys",
                        "{\"roles\":[\"publisher\",\"operator\",\"auditor\",\"admin\"],\"label\":\"silent\"}")
                        .get("key").asText();
                // an attempt recorded as the silence began may never have reached the provider: read back
                // NOT_FOUND, the calendar system's connection lets Herald re-attempt it without an operator
                herald.call(key, "PUT", "/api/v1/workspaces/" + ws + "/channels/fb",
                        "{\"type\":\"facebook\",\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token
                                + "\",\"autoReattemptAfterNotFound\":true}");

                List<Future<?>> load = new ArrayList<>();
                for (int i = 0; i < SENDERS; i++) {
                    load.add(senders.submit(() -> send(herald, key, ws)));
                }
                Thread.sleep(5_000);
                assertThat(accepted).as("accepted before the silence").isNotEmpty();

                long silenceStart = System.nanoTime();
                relay.silence();
                System.out.println("[silent-db] silence");
                List<Probe> duringSilence = probe(herald, SILENCE);
                relay.resume();
                long silenceEnd = System.nanoTime();
                Duration upAgain = awaitReady(herald);
                System.out.printf("[silent-db] readiness UP %d ms after the network returned%n", upAgain.toMillis());
                Thread.sleep(3_000);

                long refusalStart = System.nanoTime();
                relay.refuse();
                System.out.println("[silent-db] refusing connections");
                List<Probe> duringRefusal = probe(herald, REFUSAL);
                relay.resume();
                long refusalEnd = System.nanoTime();
                Duration upAfterRefusal = awaitReady(herald);
                System.out.printf("[silent-db] readiness UP %d ms after connections were taken again%n",
                        upAfterRefusal.toMillis());
                Thread.sleep(2_000);
                stopping = true;
                for (Future<?> sender : load) {
                    sender.get();
                }

                Map<String, JsonNode> views = awaitSettled(herald, key, ws, Set.copyOf(accepted.values()));
                Map<String, Integer> postsByText = new TreeMap<>();
                for (JsonNode post : sandboxTruth("facebook", page)) {
                    postsByText.merge(post.get("text").asText(), 1, Integer::sum);
                }

                report("silence", sent, duringSilence, silenceStart, silenceEnd);
                report("refusal", sent, duringRefusal, refusalStart, refusalEnd);
                Map<String, Long> byStatus = views.values().stream()
                        .collect(Collectors.groupingBy(v -> v.path("status").asText(), TreeMap::new, Collectors.counting()));
                System.out.printf("[silent-db] entries=%d publications=%d by status %s posts=%d%n", nextEntry.get(),
                        views.size(), byStatus, postsByText.values().stream().mapToInt(Integer::intValue).sum());

                assertThat(upAgain).isLessThan(Duration.ofSeconds(60));
                assertThat(upAfterRefusal).isLessThan(Duration.ofSeconds(60));
                assertBounded("silence", duringSilence, silenceStart, silenceEnd);
                assertBounded("refusal", duringRefusal, refusalStart, refusalEnd);
                assertThat(sent).as("no intake answer is a 500 or any other failure than 503")
                        .allSatisfy(s -> assertThat(s.status()).as(s.toString()).isIn(-1, 200, 202, 503));
                assertThat(sent).filteredOn(s -> s.status() == 503).as("503 answers")
                        .isNotEmpty()
                        .allSatisfy(s -> {
                            assertThat(s.code()).as(s.toString()).isEqualTo("unavailable");
                            assertThat(s.retryAfter()).as(s.toString()).isNotNull();
                        });

                // every entry the calendar system sent was accepted (it sent refused ones again) and
                // is published exactly once
                assertThat(accepted).hasSize(nextEntry.get());
                assertThat(views).hasSize(accepted.size());
                assertThat(views.values()).allSatisfy(v -> assertThat(v.path("status").asText())
                        .as(v.toString()).isEqualTo("SUCCEEDED"));
                for (int entry : accepted.keySet()) {
                    assertThat(postsByText.getOrDefault(text(entry), 0)).as("posts of entry %d", entry).isEqualTo(1);
                }
                assertThat(postsByText).hasSize(accepted.size());
            } finally {
                stopping = true;
                senders.shutdownNow();
                herald.stop();
            }
        }
    }

    /**
     * During the trouble: every readiness probe answered within 2 s, and once the node could have
     * noticed, with 503 DOWN; every intake request sent from then on was answered within 2 s
     * with 503 (a request already in flight when it began may wait for its own bounds).
     */
    private void assertBounded(String phase, List<Probe> probes, long start, long end) {
        assertThat(probes).as(phase + ": readiness probes").isNotEmpty()
                .allSatisfy(p -> assertThat(p.millis()).as(phase + " probe " + p).isLessThan(2_000));
        long noticed = start + NOTICED.toNanos();
        assertThat(probes).filteredOn(p -> p.start() > start + Duration.ofSeconds(2).toNanos())
                .as(phase + ": readiness after 2 s").isNotEmpty()
                .allSatisfy(p -> {
                    assertThat(p.status()).as(phase + " probe " + p).isEqualTo(503);
                    assertThat(p.body()).contains("DOWN");
                });
        List<Sent> refused = sent.stream().filter(s -> s.start() > noticed && s.start() < end).toList();
        assertThat(refused).as(phase + ": intake requests sent during it").isNotEmpty()
                .allSatisfy(s -> {
                    assertThat(s.status()).as(phase + " " + s).isEqualTo(503);
                    assertThat(s.millis()).as(phase + " " + s).isLessThan(2_000);
                });
    }

    private static void report(String phase, ConcurrentLinkedQueue<Sent> sent, List<Probe> probes, long start, long end) {
        List<Sent> during = sent.stream().filter(s -> s.start() >= start && s.start() < end).toList();
        List<Sent> inFlight = sent.stream().filter(s -> s.start() < start && s.end() > start).toList();
        System.out.printf("[silent-db] %s: %d probes (slowest %d ms, statuses %s); %d intake requests sent "
                        + "(statuses %s, slowest %d ms); %d in flight when it began (statuses %s, slowest %d ms)%n",
                phase, probes.size(), probes.stream().mapToLong(Probe::millis).max().orElse(0),
                probes.stream().collect(Collectors.groupingBy(Probe::status, TreeMap::new, Collectors.counting())),
                during.size(), during.stream().collect(Collectors.groupingBy(Sent::status, TreeMap::new, Collectors.counting())),
                during.stream().mapToLong(Sent::millis).max().orElse(0), inFlight.size(),
                inFlight.stream().collect(Collectors.groupingBy(Sent::status, TreeMap::new, Collectors.counting())),
                inFlight.stream().mapToLong(Sent::millis).max().orElse(0));
    }

    private static String text(int entry) {
        return "Silent database test post " + entry;
    }

    /** The calendar system: new entries one after another; a refused or unanswered one is sent again. */
    private Void send(HeraldProcess herald, String key, String ws) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (!stopping && System.nanoTime() < deadline) {
            int entry = nextEntry.getAndIncrement();
            String body = "{\"calendarEntryId\":\"entry-" + entry + "\",\"contentVersion\":1,\"channelId\":\"fb\","
                    + "\"action\":\"publish\",\"content\":{\"body\":\"" + text(entry) + "\"}}";
            while (System.nanoTime() < deadline) {
                long start = System.nanoTime();
                try {
                    HttpResponse<String> r = herald.send(key, "POST", "/api/v1/workspaces/" + ws + "/publications", body);
                    String code = r.statusCode() >= 400 ? JSON.readTree(r.body()).path("code").asText(null) : null;
                    sent.add(new Sent(entry, start, System.nanoTime(), r.statusCode(),
                            r.headers().firstValue("Retry-After").orElse(null), code));
                    if (r.statusCode() == 200 || r.statusCode() == 202) {
                        accepted.put(entry, JSON.readTree(r.body()).get("publicationId").asText());
                        break;
                    }
                } catch (IOException unanswered) {
                    sent.add(new Sent(entry, start, System.nanoTime(), -1, null, unanswered.getClass().getSimpleName()));
                }
                // a client waits as Retry-After says; a shorter wait here measures more requests
                Thread.sleep(500);
            }
            Thread.sleep(100);
        }
        return null;
    }

    /** Asks readiness every 250 ms for the given time. */
    private static List<Probe> probe(HeraldProcess herald, Duration during) throws InterruptedException {
        List<Probe> probes = new ArrayList<>();
        long end = System.nanoTime() + during.toNanos();
        while (System.nanoTime() < end) {
            long start = System.nanoTime();
            int status;
            String body;
            try {
                Readiness r = readiness(herald);
                status = r.status();
                body = r.body();
            } catch (IOException unanswered) {
                status = -1;
                body = unanswered.toString();
            }
            probes.add(new Probe(start, (System.nanoTime() - start) / 1_000_000, status, body));
            Thread.sleep(250);
        }
        return probes;
    }

    /**
     * One readiness probe as an orchestrator sends it: a new connection, closed after the answer. A
     * probe never rides a kept-alive connection that the server may be closing at that moment.
     */
    private static Readiness readiness(HeraldProcess herald) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) URI.create(herald.base() + "/actuator/health/readiness")
                .toURL().openConnection();
        connection.setConnectTimeout(2_000);
        connection.setReadTimeout(5_000);
        connection.setRequestProperty("Connection", "close");
        try {
            int status = connection.getResponseCode();
            InputStream stream = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            String body = stream == null ? "" : new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            return new Readiness(status, body);
        } finally {
            connection.disconnect();
        }
    }

    private record Readiness(int status, String body) {
    }

    private static Duration awaitReady(HeraldProcess herald) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (readiness(herald).status() == 200) {
                    return Duration.ofNanos(System.nanoTime() - start);
                }
            } catch (IOException notYet) {
                // asked again below
            }
            Thread.sleep(250);
        }
        throw new AssertionError("readiness did not come back within 90 s");
    }

    private Map<String, JsonNode> awaitSettled(HeraldProcess herald, String key, String ws, Set<String> ids)
            throws Exception {
        Map<String, JsonNode> views = new ConcurrentHashMap<>();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        Set<String> settled = Set.of("SUCCEEDED", "NOT_EXECUTED", "FAILED", "ABANDONED");
        while (System.nanoTime() < deadline) {
            for (String id : ids) {
                HttpResponse<String> answer = herald.send(key, "GET", "/api/v1/workspaces/" + ws + "/publications/" + id, null);
                views.put(id, answer.statusCode() == 200 ? JSON.readTree(answer.body()) : JSON.createObjectNode());
            }
            if (views.values().stream().allMatch(v -> settled.contains(v.path("status").asText()))) {
                return views;
            }
            Thread.sleep(500);
        }
        Map<String, Long> byStatus = new TreeMap<>();
        views.values().forEach(v -> byStatus.merge(v.path("status").asText("NOT_IN_VIEW"), 1L, Long::sum));
        throw new AssertionError("publications did not settle: " + byStatus);
    }
}
