import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Herald's load driver: a process of its own that talks to Herald over HTTP only (and reads the
 * event store to see when publications have succeeded). Run with the JDK's source launcher, the
 * PostgreSQL driver on the class path; run.sh does that. Every command prints one line of
 * {@code key=value} pairs.
 *
 * <pre>
 * setup      BASE SYSTEM_KEY WORKSPACE PAGE TOKEN          -> key=...
 * saturate   BASE KEY WORKSPACE CONCURRENCY SECONDS PREFIX  -> accepted_per_s p50_ms p99_ms
 * fixed      BASE KEY WORKSPACE RATE SECONDS PREFIX         -> accepted_per_s p50_ms p99_ms
 * e2e        BASE KEY WORKSPACE COUNT PREFIX JDBC_URL       -> publications_per_s seconds
 * drain      JDBC_URL SECONDS                               -> waits until every request has succeeded
 * replay     BASE SYSTEM_KEY JDBC_URL                       -> events events_per_s seconds
 * </pre>
 */
public final class LoadDriver {

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .executor(Executors.newFixedThreadPool(8))
            .build();
    private static final String CHANNEL = "fb-bench";

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "setup" -> setup(args[1], args[2], args[3], args[4], args[5]);
            case "saturate" -> saturate(args[1], args[2], args[3], Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), args[6]);
            case "fixed" -> fixed(args[1], args[2], args[3], Integer.parseInt(args[4]), Integer.parseInt(args[5]),
                    args[6]);
            case "e2e" -> endToEnd(args[1], args[2], args[3], Integer.parseInt(args[4]), args[5], args[6]);
            case "drain" -> System.out.println("drained=" + drain(args[1], Integer.parseInt(args[2])));
            case "replay" -> replay(args[1], args[2], args[3]);
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
        System.exit(0);
    }

    private static void setup(String base, String systemKey, String ws, String page, String token)
            throws Exception {
        check(send(base, systemKey, "POST", "/sandbox/_admin/facebook/tokens",
                "{\"token\":\"" + token + "\",\"pageId\":\"" + page + "\",\"kind\":\"PAGE\"}"));
        check(send(base, systemKey, "POST", "/api/v1/admin/workspaces",
                "{\"workspaceId\":\"" + ws + "\",\"name\":\"benchmark\"}"));
        String key = field(check(send(base, systemKey, "POST", "/api/v1/workspaces/" + ws + "/keys",
                "{\"roles\":[\"publisher\",\"operator\",\"auditor\",\"admin\"],\"label\":\"bench\"}")), "key");
        check(send(base, key, "PUT", "/api/v1/workspaces/" + ws + "/channels/" + CHANNEL,
                "{\"type\":\"facebook\",\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token + "\"}"));
        System.out.println("key=" + key);
    }

    /** Closed loop: CONCURRENCY clients, each sending its next request as soon as the last is answered. */
    private static void saturate(String base, String key, String ws, int concurrency, int seconds, String prefix)
            throws Exception {
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        AtomicInteger errors = new AtomicInteger();
        AtomicInteger next = new AtomicInteger();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        ExecutorService clients = Executors.newFixedThreadPool(concurrency);
        long started = System.nanoTime();
        for (int c = 0; c < concurrency; c++) {
            clients.submit(() -> {
                while (System.nanoTime() < end) {
                    long t0 = System.nanoTime();
                    try {
                        HttpResponse<String> r = HTTP.send(publish(base, key, ws, prefix + next.getAndIncrement()),
                                HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() == 202 || r.statusCode() == 200) {
                            latencies.add(System.nanoTime() - t0);
                        } else {
                            errors.incrementAndGet();
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    }
                }
                return null;
            });
        }
        clients.shutdown();
        clients.awaitTermination(seconds + 60L, TimeUnit.SECONDS);
        report(latencies, errors.get(), System.nanoTime() - started);
    }

    /** Open loop: one request every 1/RATE s whatever happens; latency counts from the planned send time. */
    private static void fixed(String base, String key, String ws, int rate, int seconds, String prefix)
            throws Exception {
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        AtomicInteger errors = new AtomicInteger();
        List<CompletableFuture<?>> pending = new ArrayList<>();
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        long started = System.nanoTime();
        int total = rate * seconds;
        for (int i = 0; i < total; i++) {
            long planned = started + i * interval;
            long wait = planned - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            pending.add(HTTP.sendAsync(publish(base, key, ws, prefix + i), HttpResponse.BodyHandlers.ofString())
                    .whenComplete((r, failure) -> {
                        if (failure == null && (r.statusCode() == 202 || r.statusCode() == 200)) {
                            latencies.add(System.nanoTime() - planned);
                        } else {
                            errors.incrementAndGet();
                        }
                    }));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();
        report(latencies, errors.get(), System.nanoTime() - started);
    }

    /** COUNT publications, sent by 32 clients; the time from the first request until all have succeeded. */
    private static void endToEnd(String base, String key, String ws, int count, String prefix, String jdbc)
            throws Exception {
        long before = succeeded(jdbc);
        AtomicInteger next = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(32);
        long started = System.nanoTime();
        for (int c = 0; c < 32; c++) {
            clients.submit(() -> {
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    while (true) {
                        try {
                            HttpResponse<String> r = HTTP.send(publish(base, key, ws, prefix + i),
                                    HttpResponse.BodyHandlers.ofString());
                            if (r.statusCode() == 202 || r.statusCode() == 200) {
                                break;
                            }
                        } catch (Exception e) {
                            // sent again below: the request is idempotent
                        }
                        errors.incrementAndGet();
                        Thread.sleep(100);
                    }
                }
                return null;
            });
        }
        clients.shutdown();
        clients.awaitTermination(30, TimeUnit.MINUTES);
        double sentSeconds = (System.nanoTime() - started) / 1e9;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
        long done;
        while ((done = succeeded(jdbc) - before) < count && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("count=%d succeeded=%d seconds=%.1f publications_per_s=%.1f intake_seconds=%.1f "
                + "retried_requests=%d%n", count, done, seconds, done / seconds, sentSeconds, errors.get());
    }

    /**
     * Waits until every requested publication has succeeded, so one measurement does not pay for the
     * last; gives up when the event store has not grown for 30 s (a publication that settled otherwise).
     */
    private static String drain(String jdbc, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long lastSize = -1;
        long lastGrowth = System.nanoTime();
        while (System.nanoTime() < deadline) {
            long open = count(jdbc, "PublicationRequestedEvent") - succeeded(jdbc);
            if (open <= 0) {
                return "true";
            }
            long size = scalar(jdbc, "SELECT max(global_index) FROM domain_event_entry");
            if (size != lastSize) {
                lastSize = size;
                lastGrowth = System.nanoTime();
            } else if (System.nanoTime() - lastGrowth > TimeUnit.SECONDS.toNanos(30)) {
                return "false not_succeeded=" + open;
            }
            Thread.sleep(500);
        }
        return "false timeout";
    }

    /** Rebuilds every projection at once and waits until all are caught up again. */
    private static void replay(String base, String systemKey, String jdbc) throws Exception {
        long events = scalar(jdbc, "SELECT count(*) FROM domain_event_entry");
        long head = scalar(jdbc, "SELECT max(global_index) FROM domain_event_entry");
        String list = check(send(base, systemKey, "GET", "/api/v1/admin/projections", null));
        List<String> projections = new ArrayList<>();
        Matcher m = Pattern.compile("\"name\"\\s*:\\s*\"([^\"]+)\"\\s*,\\s*\"projection\"\\s*:\\s*true").matcher(list);
        while (m.find()) {
            projections.add(m.group(1));
        }
        long started = System.nanoTime();
        for (String name : projections) {
            check(send(base, systemKey, "POST", "/api/v1/admin/projections/" + name + "/rebuild", null));
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
        while (System.nanoTime() < deadline) {
            Thread.sleep(500);
            String status = send(base, systemKey, "GET", "/api/v1/admin/projections", null).body();
            // done when every segment is claimed and at the head of the store; Axon keeps the replay
            // mark until a newer event arrives, so that mark says nothing here
            if (!status.contains("\"caughtUp\":false") && allAtLeast(status, head)) {
                break;
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("projections=%d events=%d seconds=%.1f events_per_s=%.0f%n", projections.size(), events,
                seconds, events / seconds);
    }

    /** SUCCEEDED: the provider's answer, or an unknown outcome that a read-back found published. */
    private static boolean allAtLeast(String status, long head) {
        Matcher position = Pattern.compile("\"position\"\\s*:\\s*(null|[0-9]+)").matcher(status);
        boolean any = false;
        while (position.find()) {
            any = true;
            if (position.group(1).equals("null") || Long.parseLong(position.group(1)) < head) {
                return false;
            }
        }
        return any;
    }

    private static long succeeded(String jdbc) throws Exception {
        return count(jdbc, "PublicationSucceededEvent") + scalar(jdbc, "SELECT count(*) FROM domain_event_entry"
                + " WHERE payload_type = 'io.herald.contracts.publication.PublicationReconciledEvent'"
                + " AND convert_from(payload, 'UTF8') LIKE '%\"result\":\"FOUND\"%'");
    }

    private static long count(String jdbc, String eventType) throws Exception {
        return scalar(jdbc, "SELECT count(*) FROM domain_event_entry WHERE payload_type = "
                + "'io.herald.contracts.publication." + eventType + "'");
    }

    private static long scalar(String jdbc, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(jdbc); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static HttpRequest publish(String base, String key, String ws, String entry) {
        return request(base, key, "POST", "/api/v1/workspaces/" + ws + "/publications",
                "{\"calendarEntryId\":\"" + entry + "\",\"contentVersion\":1,\"channelId\":\"" + CHANNEL
                        + "\",\"action\":\"publish\",\"content\":{\"body\":\"Benchmark post " + entry + "\"}}");
    }

    private static HttpRequest request(String base, String key, String method, String path, String body) {
        return HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    private static HttpResponse<String> send(String base, String key, String method, String path, String body)
            throws Exception {
        return HTTP.send(request(base, key, method, path, body), HttpResponse.BodyHandlers.ofString());
    }

    private static String check(HttpResponse<String> r) {
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(r.request().method() + " " + r.request().uri().getPath() + " -> "
                    + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no " + name + " in the answer");
        }
        return m.group(1);
    }

    private static void report(ConcurrentLinkedQueue<Long> latencies, int errors, long elapsedNanos) {
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        double seconds = elapsedNanos / 1e9;
        System.out.printf("accepted=%d errors=%d seconds=%.1f accepted_per_s=%.1f p50_ms=%.1f p99_ms=%.1f%n",
                sorted.size(), errors, seconds, sorted.size() / seconds, percentile(sorted, 0.50),
                percentile(sorted, 0.99));
    }

    private static double percentile(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1)) / 1e6;
    }
}
