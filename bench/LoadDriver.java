import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
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
 * setup      BASE SYSTEM_KEY WORKSPACE PAGE TOKEN [SANDBOX] -> key=... (SANDBOX: the sandbox's base where it
 *                                                           runs apart from Herald; BASE otherwise)
 * saturate   BASE KEY WORKSPACE CONCURRENCY SECONDS PREFIX  -> accepted_per_s p50_ms p99_ms
 * fixed      BASE KEY WORKSPACE RATE SECONDS PREFIX [FILE]  -> accepted_per_s p50_ms p99_ms (FILE: each
 *                                                           request's planned send, ms from the start, and latency)
 * e2e        BASE KEY WORKSPACE COUNT PREFIX JDBC_URL       -> publications_per_s seconds
 * drain      JDBC_URL SECONDS                               -> waits until every request has succeeded
 * replay     BASE SYSTEM_KEY JDBC_URL                       -> events events_per_s seconds
 * caughtup   BASE SYSTEM_KEY JDBC_URL SECONDS                -> waits until every processor is at the store's head
 * read       JDBC_URL                                       -> the database's own read of every event, timed
 * queries    BASE KEY WORKSPACE ROUNDS VERIFY_ROUNDS JDBC_URL -> one line per call: p50_ms p99_ms
 * latency    BASE KEY WORKSPACE RATE COUNT PREFIX JDBC_URL -> a call line: end-to-end p50_ms p99_ms at RATE
 * </pre>
 */
public final class LoadDriver {

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .executor(Executors.newFixedThreadPool(8))
            .build();
    private static final String CHANNEL = "fb-bench";
    /** Connections of the open-loop phase: far more than a rate Herald keeps up with needs. */
    private static final int OPEN_LOOP_CONNECTIONS = 64;

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "setup" -> setup(args[1], args[2], args[3], args[4], args[5], args.length > 6 ? args[6] : args[1]);
            case "saturate" -> saturate(args[1], args[2], args[3], Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), args[6]);
            case "fixed" -> fixed(args[1], args[2], args[3], Integer.parseInt(args[4]), Integer.parseInt(args[5]),
                    args[6], args.length > 7 ? args[7] : null);
            case "e2e" -> endToEnd(args[1], args[2], args[3], Integer.parseInt(args[4]), args[5], args[6]);
            case "drain" -> System.out.println("drained=" + drain(args[1], Integer.parseInt(args[2])));
            case "replay" -> replay(args[1], args[2], args[3]);
            case "caughtup" -> caughtUp(args[1], args[2], args[3], Integer.parseInt(args[4]));
            case "read" -> read(args[1]);
            case "queries" -> queries(args[1], args[2], args[3], Integer.parseInt(args[4]), Integer.parseInt(args[5]),
                    args[6]);
            case "latency" -> latency(args[1], args[2], args[3], Integer.parseInt(args[4]), Integer.parseInt(args[5]),
                    args[6], args[7]);
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
        System.exit(0);
    }

    private static void setup(String base, String systemKey, String ws, String page, String token, String sandbox)
            throws Exception {
        check(send(sandbox, systemKey, "POST", "/sandbox/_admin/facebook/tokens",
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
                try (Http1 http = new Http1(base)) {
                    while (System.nanoTime() < end) {
                        long t0 = System.nanoTime();
                        if (accepted(http, key, ws, prefix + next.getAndIncrement())) {
                            latencies.add(System.nanoTime() - t0);
                        } else {
                            errors.incrementAndGet();
                        }
                    }
                }
                return null;
            });
        }
        clients.shutdown();
        clients.awaitTermination(seconds + 60L, TimeUnit.SECONDS);
        report(latencies, errors.get(), System.nanoTime() - started);
    }

    /**
     * Open loop: request i is due at start + i/RATE, whatever happens to the others, and its latency
     * counts from that planned time (no coordinated omission). {@link #OPEN_LOOP_CONNECTIONS}
     * connections send them; a request due while all are busy waits, and the wait counts.
     */
    private static void fixed(String base, String key, String ws, int rate, int seconds, String prefix,
                              String latencyFile) throws Exception {
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        AtomicInteger errors = new AtomicInteger();
        AtomicInteger next = new AtomicInteger();
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        int total = rate * seconds;
        long[] each = new long[total];
        ExecutorService senders = Executors.newFixedThreadPool(OPEN_LOOP_CONNECTIONS);
        long startedMillis = System.currentTimeMillis();
        long started = System.nanoTime();
        for (int c = 0; c < OPEN_LOOP_CONNECTIONS; c++) {
            senders.submit(() -> {
                try (Http1 http = new Http1(base)) {
                    for (int i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
                        long planned = started + i * interval;
                        long wait = planned - System.nanoTime();
                        if (wait > 0) {
                            TimeUnit.NANOSECONDS.sleep(wait);
                        }
                        if (accepted(http, key, ws, prefix + i)) {
                            each[i] = System.nanoTime() - planned;
                            latencies.add(each[i]);
                        } else {
                            each[i] = -1;
                            errors.incrementAndGet();
                        }
                    }
                }
                return null;
            });
        }
        senders.shutdown();
        senders.awaitTermination(30, TimeUnit.MINUTES);
        report(latencies, errors.get(), System.nanoTime() - started);
        if (latencyFile != null) {
            StringBuilder lines = new StringBuilder("# started_epoch_ms=" + startedMillis + "\nplanned_ms latency_ms\n");
            for (int i = 0; i < total; i++) {
                lines.append(String.format(Locale.ROOT, "%.1f %.2f%n", i * interval / 1e6, each[i] / 1e6));
            }
            java.nio.file.Files.writeString(java.nio.file.Path.of(latencyFile), lines);
        }
    }

    /** COUNT publications, sent by 32 clients; the time from the first request until all have succeeded. */
    private static void endToEnd(String base, String key, String ws, int count, String prefix, String jdbc)
            throws Exception {
        try (StoreWatch store = StoreWatch.fromHead(jdbc)) {
            AtomicInteger next = new AtomicInteger();
            AtomicInteger errors = new AtomicInteger();
            ExecutorService clients = Executors.newFixedThreadPool(32);
            long started = System.nanoTime();
            for (int c = 0; c < 32; c++) {
                clients.submit(() -> {
                    try (Http1 http = new Http1(base)) {
                        for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                            // sent again until accepted: the request is idempotent
                            while (!accepted(http, key, ws, prefix + i)) {
                                errors.incrementAndGet();
                                Thread.sleep(100);
                            }
                        }
                    }
                    return null;
                });
            }
            clients.shutdown();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
            double sentSeconds = Double.NaN;
            long lastSucceeded = -1;
            long lastChange = System.nanoTime();
            while (store.succeeded() < count && System.nanoTime() < deadline) {
                if (Double.isNaN(sentSeconds) && clients.isTerminated()) {
                    sentSeconds = (System.nanoTime() - started) / 1e9;
                }
                if (store.succeeded() != lastSucceeded) {
                    lastSucceeded = store.succeeded();
                    lastChange = System.nanoTime();
                } else if (clients.isTerminated() && System.nanoTime() - lastChange > TimeUnit.SECONDS.toNanos(15)) {
                    // a commit that came later than the gap's patience (a machine starved of CPU holds a
                    // transaction for longer): counted once from the phase's first position instead
                    store.recount();
                    lastChange = System.nanoTime();
                }
                // the last tenth is followed as closely as the reference follows its counter, so the
                // figure is not rounded up to the next poll
                Thread.sleep(store.succeeded() * 10L >= count * 9L ? StoreWatch.FINISH_POLL_MILLIS
                        : StoreWatch.POLL_MILLIS);
                store.poll();
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            String behind = store.viewBehind(ws, prefix, count);
            clients.awaitTermination(30, TimeUnit.MINUTES);
            if (Double.isNaN(sentSeconds)) {
                sentSeconds = seconds;
            }
            System.out.printf("count=%d succeeded=%d seconds=%.1f publications_per_s=%.1f intake_seconds=%.1f "
                    + "retried_requests=%d %s%n", count, store.succeeded(), seconds, store.succeeded() / seconds,
                    sentSeconds, errors.get(), behind);
        }
    }

    /**
     * End-to-end latency in an open loop: publication i requested at start + i/RATE (16 connections,
     * a request sent again until accepted, the request being idempotent), its latency counted from
     * that planned time until the event store shows it SUCCEEDED (its {@code PublicationSucceededEvent},
     * or a read-back that found the post), the store followed from its head every
     * {@link StoreWatch#LATENCY_POLL_MILLIS}. Prints one call line, as {@code queries} does:
     * {@code status=SUCCEEDED} when every publication succeeded, {@code INCOMPLETE} otherwise.
     */
    private static void latency(String base, String key, String ws, int rate, int count, String prefix, String jdbc)
            throws Exception {
        java.util.Map<String, Integer> index = new java.util.HashMap<>();
        for (int i = 0; i < count; i++) {
            index.put(StoreWatch.publicationId(ws, prefix + i), i);
        }
        long[] done = new long[count];
        AtomicInteger retried = new AtomicInteger();
        AtomicInteger next = new AtomicInteger();
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        try (StoreWatch store = StoreWatch.fromHead(jdbc)) {
            int[] seen = {0};
            store.onSucceeded(id -> {
                Integer i = index.get(id);
                if (i != null && done[i] == 0) {
                    done[i] = System.nanoTime();
                    seen[0]++;
                }
            });
            ExecutorService senders = Executors.newFixedThreadPool(16);
            long started = System.nanoTime();
            for (int c = 0; c < 16; c++) {
                senders.submit(() -> {
                    try (Http1 http = new Http1(base)) {
                        for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                            long wait = started + i * interval - System.nanoTime();
                            if (wait > 0) {
                                TimeUnit.NANOSECONDS.sleep(wait);
                            }
                            while (!accepted(http, key, ws, prefix + i)) {
                                retried.incrementAndGet();
                                Thread.sleep(100);
                            }
                        }
                    }
                    return null;
                });
            }
            senders.shutdown();
            long deadline = started + count * interval + TimeUnit.MINUTES.toNanos(5);
            while (seen[0] < count && System.nanoTime() < deadline) {
                Thread.sleep(StoreWatch.LATENCY_POLL_MILLIS);
                store.poll();
            }
            senders.awaitTermination(5, TimeUnit.MINUTES);
            List<Long> times = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                if (done[i] != 0) {
                    times.add(done[i] - (started + i * interval));
                }
            }
            Collections.sort(times);
            System.out.printf(Locale.ROOT, "call=e2e_%d_per_s status=%s rounds=%d p50_ms=%.1f p99_ms=%.1f succeeded=%d "
                    + "retried_requests=%d%n", rate, seen[0] == count ? "SUCCEEDED" : "INCOMPLETE", count,
                    percentile(times, 0.50), percentile(times, 0.99), seen[0], retried.get());
        }
    }

    /**
     * Waits until every requested publication has succeeded, so one measurement does not pay for the
     * last; gives up when the event store has not grown for 30 s (a publication that settled otherwise).
     */
    private static String drain(String jdbc, int seconds) throws Exception {
        try (StoreWatch store = StoreWatch.fromStart(jdbc)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            long lastSize = -1;
            long lastGrowth = System.nanoTime();
            while (System.nanoTime() < deadline) {
                store.poll();
                if (store.caughtUp()) {
                    long open = store.requested() - store.succeeded();
                    if (open <= 0) {
                        return "true";
                    }
                    if (store.position() != lastSize) {
                        lastSize = store.position();
                        lastGrowth = System.nanoTime();
                    } else if (System.nanoTime() - lastGrowth > TimeUnit.SECONDS.toNanos(30)) {
                        return "false not_succeeded=" + open;
                    }
                    Thread.sleep(StoreWatch.POLL_MILLIS);
                }
            }
            return "false timeout";
        }
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
            // often enough that a rebuild of a few seconds is timed to a few percent
            Thread.sleep(100);
            String status = send(base, systemKey, "GET", "/api/v1/admin/projections", null).body();
            // done when every segment is claimed and at the head of the store; Axon keeps the replay
            // mark until a newer event arrives, so that mark says nothing here
            if (!status.contains("\"caughtUp\":false") && allAtLeast(status, head)) {
                break;
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        // a rebuild that failed leaves its processor running at the head of the store, caught up at once
        List<String> failed = new ArrayList<>();
        String after = send(base, systemKey, "GET", "/api/v1/admin/projections", null).body();
        // one processor a chunk: its segments have no name
        for (String processor : after.split("\\{\\s*\"name\"\\s*:\\s*")) {
            Matcher name = Pattern.compile("^\"([^\"]+)\"").matcher(processor);
            Matcher error = Pattern.compile("\"error\"\\s*:\\s*\"([^\"]+)\"").matcher(processor);
            if (name.find() && projections.contains(name.group(1)) && error.find()) {
                failed.add(name.group(1) + ": " + error.group(1));
            }
        }
        if (!failed.isEmpty()) {
            System.out.printf("projections=%d events=%d seconds=%.1f events_per_s=failed failed=%s%n",
                    projections.size(), events, seconds, String.join(",", failed).replace(' ', '_'));
            return;
        }
        System.out.printf("projections=%d events=%d seconds=%.1f events_per_s=%.0f%n", projections.size(), events,
                seconds, events / seconds);
    }

    /**
     * Waits until every event processor (the audit chain and the live verifier included) is at the
     * store's head as it is now; prints the seconds it took and the events behind at the start.
     */
    private static void caughtUp(String base, String systemKey, String jdbc, int seconds) throws Exception {
        long head = scalar(jdbc, "SELECT max(global_index) FROM domain_event_entry");
        long started = System.nanoTime();
        long deadline = started + TimeUnit.SECONDS.toNanos(seconds);
        boolean done = false;
        while (!done && System.nanoTime() < deadline) {
            String status = send(base, systemKey, "GET", "/api/v1/admin/projections", null).body();
            done = !status.contains("\"caughtUp\":false") && allAtLeast(status, head);
            if (!done) {
                Thread.sleep(200);
            }
        }
        System.out.printf(Locale.ROOT, "caught_up=%s head=%d seconds=%.1f%n", done, head,
                (System.nanoTime() - started) / 1e9);
    }

    /**
     * The database's own answer for what a rebuild reads: every stored event with its payload and
     * metadata, in store order and then in the rebuild's order (aggregate, sequence), fetched in
     * pages of 10,000 rows in binary and each row's bytes touched, nothing deserialized.
     */
    private static void read(String jdbc) throws Exception {
        try (Connection c = DriverManager.getConnection(jdbc)) {
            c.setAutoCommit(false);
            StringBuilder out = new StringBuilder();
            for (String[] order : new String[][] {{"store", "global_index"},
                    {"aggregate", "aggregate_identifier, sequence_number"}}) {
                long started = System.nanoTime();
                long rows = 0;
                long bytes = 0;
                try (java.sql.PreparedStatement s = c.prepareStatement("SELECT /* bench-driver */ global_index, type,"
                        + " aggregate_identifier, sequence_number, event_identifier, time_stamp, payload_type,"
                        + " payload_revision, payload, meta_data FROM domain_event_entry ORDER BY " + order[1])) {
                    s.setFetchSize(10_000);
                    // in binary, as a rebuild reads (the driver's text form sends each payload in hex)
                    s.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(-1);
                    try (ResultSet rs = s.executeQuery()) {
                        while (rs.next()) {
                            rows++;
                            bytes += rs.getBytes(9).length;
                            byte[] meta = rs.getBytes(10);
                            bytes += meta == null ? 0 : meta.length;
                        }
                    }
                }
                double secs = (System.nanoTime() - started) / 1e9;
                out.append(String.format(Locale.ROOT, "%s_order_events=%d %s_order_seconds=%.1f %s_order_events_per_s=%.0f ",
                        order[0], rows, order[0], secs, order[0], rows / secs));
                if (order[0].equals("store")) {
                    out.append(String.format(Locale.ROOT, "mb=%.0f ", bytes / 1e6));
                }
            }
            c.commit();
            System.out.println(out.toString().trim());
        }
    }

    /**
     * The operator's, auditor's and calendar's calls, each sent ROUNDS times one after another (five
     * more first, not counted) and timed from send to the last byte of the answer; the whole-workspace
     * verifier VERIFY_ROUNDS times. The publication asked for is the oldest one of the workspace
     * (present in a small and a grown store alike), the entry prefix that of its calendar entry
     * without the last character.
     */
    private static void queries(String base, String key, String ws, int rounds, int verifyRounds, String jdbc)
            throws Exception {
        String id;
        String entry;
        try (Connection c = DriverManager.getConnection(jdbc); java.sql.PreparedStatement s = c.prepareStatement(
                "SELECT /* bench-driver */ publication_id, calendar_entry_id FROM publication_view"
                        + " WHERE workspace_id = ? AND calendar_entry_id LIKE 'seed-%' ORDER BY requested_at LIMIT 1")) {
            s.setString(1, ws);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no seed publication in the view");
                }
                id = rs.getString(1);
                entry = rs.getString(2);
            }
        }
        long head = scalar(jdbc, "SELECT /* bench-driver */ max(global_index) FROM domain_event_entry");
        String prefix = entry.substring(0, entry.length() - 1);
        String w = "/api/v1/workspaces/" + ws;
        String[][] calls = {
                {"find_by_id", w + "/publications?q=" + id},
                {"find_by_entry_prefix", w + "/publications?q=" + prefix},
                {"list_newest", w + "/publications"},
                {"list_by_status", w + "/publications?status=SUCCEEDED"},
                {"list_by_channel", w + "/publications?channelId=" + CHANNEL},
                {"decision_queue", w + "/decisions"},
                {"stats_24h", w + "/stats?window=24h"},
                {"stats_7d", w + "/stats?window=7d"},
                {"counts", w + "/counts"},
                {"channels", w + "/channels"},
                {"one_publication", w + "/publications/" + id},
                {"its_events", w + "/publications/" + id + "/events"},
                {"audit_page_start", w + "/audit/events?limit=100"},
                {"audit_page_middle", w + "/audit/events?limit=100&after=" + head / 2},
                {"audit_verify", w + "/audit/verify"},
        };
        for (String[] call : calls) {
            int n = call[0].equals("audit_verify") ? verifyRounds : rounds;
            List<Long> times = new ArrayList<>();
            int status = 0;
            for (int i = 0; i < n + 5; i++) {
                long t0 = System.nanoTime();
                HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + call[1]))
                        .timeout(Duration.ofMinutes(10)).header("Authorization", "Bearer " + key).GET().build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                long elapsed = System.nanoTime() - t0;
                status = r.statusCode();
                if (i >= 5) {
                    times.add(elapsed);
                }
            }
            Collections.sort(times);
            System.out.printf(Locale.ROOT, "call=%s status=%d rounds=%d p50_ms=%.1f p99_ms=%.1f%n", call[0], status, n,
                    percentile(times, 0.50), percentile(times, 0.99));
        }
        // the operator console, opened on the workspace with the key signed in: its page alone, then
        // the page, the files it links and the API calls its script makes on load, as a browser does
        String html = "/console?ws=" + ws;
        for (String name : new String[] {"console_html", "console_page"}) {
            List<Long> times = new ArrayList<>();
            int status = 0;
            for (int i = 0; i < rounds + 5; i++) {
                long t0 = System.nanoTime();
                status = name.equals("console_html") ? get(base, html, null).statusCode() : consoleLoad(base, key, ws);
                long elapsed = System.nanoTime() - t0;
                if (i >= 5) {
                    times.add(elapsed);
                }
            }
            Collections.sort(times);
            System.out.printf(Locale.ROOT, "call=%s status=%d rounds=%d p50_ms=%.1f p99_ms=%.1f%n", name, status, rounds,
                    percentile(times, 0.50), percentile(times, 0.99));
        }
    }

    private static final Pattern LINKED = Pattern.compile("\\b(?:src|href)=\"(/[^\"?#]+\\.(?:js|css))\"");
    private static final Pattern WEBHOOK = Pattern.compile("\"webhookId\"\\s*:\\s*\"([^\"]+)\"");

    /**
     * One load of the console's default view (no filter, no case open, the 24 h window), uncached:
     * the page; then every style sheet and script it links, at once; then, at once, each call the
     * page's first refresh makes (counts, the decision queue, the newest 20 publications, stats for
     * 24 h, the channel types and then the channels, the webhooks and then each one's failed and
     * pending deliveries). The worst status of them all.
     */
    private static int consoleLoad(String base, String key, String ws) throws Exception {
        HttpResponse<String> page = get(base, "/console?ws=" + ws, null);
        int worst = page.statusCode();
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> files = new ArrayList<>();
        Matcher linked = LINKED.matcher(page.body());
        while (linked.find()) {
            files.add(getAsync(base, linked.group(1), null));
        }
        for (var file : files) {
            worst = Math.max(worst, file.join().statusCode());
        }
        String w = "/api/v1/workspaces/" + ws;
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (String path : new String[] {"/counts", "/decisions?limit=100", "/publications?limit=20",
                "/stats?window=24h"}) {
            calls.add(getAsync(base, w + path, key));
        }
        calls.add(getAsync(base, w + "/channel-types", key).thenCompose(r -> getAsync(base, w + "/channels", key)));
        calls.add(getAsync(base, w + "/webhooks", key).thenCompose(r -> {
            List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> deliveries = new ArrayList<>();
            Matcher hook = WEBHOOK.matcher(r.body());
            while (hook.find()) {
                for (String status : new String[] {"FAILED", "PENDING"}) {
                    deliveries.add(getAsync(base, w + "/webhooks/" + hook.group(1) + "/deliveries?limit=20&status="
                            + status, key));
                }
            }
            return java.util.concurrent.CompletableFuture.allOf(deliveries.toArray(new java.util.concurrent.CompletableFuture[0]))
                    .thenApply(v -> deliveries.stream().map(java.util.concurrent.CompletableFuture::join)
                            .filter(d -> d.statusCode() >= 300).findFirst().orElse(r));
        }));
        for (var call : calls) {
            worst = Math.max(worst, call.join().statusCode());
        }
        return worst;
    }

    private static HttpRequest getRequest(String base, String path, String key) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).version(HttpClient.Version.HTTP_1_1)
                .timeout(Duration.ofMinutes(10)).GET();
        if (key != null) {
            b.header("Authorization", "Bearer " + key).header("Accept", "application/json");
        }
        return b.build();
    }

    private static HttpResponse<String> get(String base, String path, String key) throws Exception {
        return HTTP.send(getRequest(base, path, key), HttpResponse.BodyHandlers.ofString());
    }

    private static java.util.concurrent.CompletableFuture<HttpResponse<String>> getAsync(String base, String path,
            String key) {
        return HTTP.sendAsync(getRequest(base, path, key), HttpResponse.BodyHandlers.ofString());
    }

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

    private static long scalar(String jdbc, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(jdbc); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Follows the event store as a tracking processor would, so waiting for completion costs the
     * database next to nothing: one connection, one bounded range query on the primary key every
     * {@link #POLL_MILLIS} (every {@link #FINISH_POLL_MILLIS} in an end-to-end phase's last tenth),
     * never a count over the table. An index skipped by the range (its
     * transaction committed after a higher one) is asked for again until it shows up or is older
     * than {@link #GAP_MILLIS}, as Axon's gap-aware token does. A publication counts as succeeded on
     * its provider's answer, or on a read-back that found the post after an unknown outcome.
     */
    static final class StoreWatch implements AutoCloseable {

        static final long POLL_MILLIS = 500;
        /** The poll of an end-to-end phase's last tenth: the reference checks its counter every 20 ms. */
        static final long FINISH_POLL_MILLIS = 20;
        /** The poll of the latency phase: each publication's success seen within 10 ms of its commit. */
        static final long LATENCY_POLL_MILLIS = 10;
        private static final long GAP_MILLIS = 10_000;
        private static final int BATCH = 5_000;
        private static final int MAX_GAP = 1_000;
        private static final String EVENTS = "io.herald.contracts.publication.";
        // the marker keeps the driver's own statements apart from Herald's in pg_stat_statements
        private static final String SELECT = "SELECT /* bench-driver */ global_index, payload_type,"
                + " payload_type = '" + EVENTS + "PublicationReconciledEvent'"
                + " AND position('\"result\":\"FOUND\"' IN convert_from(payload, 'UTF8')) > 0,"
                + " aggregate_identifier FROM domain_event_entry";

        private final Connection connection;
        private final java.sql.PreparedStatement range;
        private final java.sql.PreparedStatement gaps;
        private final java.util.Map<Long, Long> missing = new java.util.HashMap<>();
        private final long start;
        private long position;
        private boolean caughtUp;
        private long requested;
        private long succeeded;
        private java.util.function.Consumer<String> onSucceeded = id -> { };

        private StoreWatch(String jdbc, long position) throws Exception {
            this.connection = DriverManager.getConnection(jdbc);
            this.range = connection.prepareStatement(SELECT + " WHERE global_index > ? ORDER BY global_index LIMIT "
                    + BATCH);
            this.gaps = connection.prepareStatement(SELECT + " WHERE global_index = ANY (?)");
            this.position = position;
            this.start = position;
        }

        /** Counts only what is appended from now on. */
        static StoreWatch fromHead(String jdbc) throws Exception {
            return new StoreWatch(jdbc, scalar(jdbc, "SELECT /* bench-driver */ coalesce(max(global_index), 0)"
                    + " FROM domain_event_entry"));
        }

        /** Told the publication id of each success the polls see, in the polling thread. */
        void onSucceeded(java.util.function.Consumer<String> listener) {
            this.onSucceeded = listener;
        }

        /** Counts the succeeded publications after the first position again, in one query. */
        void recount() throws Exception {
            try (java.sql.PreparedStatement count = connection.prepareStatement("SELECT /* bench-driver */ count(*)"
                    + " FROM (" + SELECT + " WHERE global_index > ?) e (global_index, payload_type, found, aggregate)"
                    + " WHERE payload_type = '" + EVENTS + "PublicationSucceededEvent' OR found")) {
                count.setLong(1, start);
                try (ResultSet rs = count.executeQuery()) {
                    rs.next();
                    succeeded = Math.max(succeeded, rs.getLong(1));
                }
            }
        }

        /** Counts the whole store, reading it in bounded batches. */
        static StoreWatch fromStart(String jdbc) throws Exception {
            return new StoreWatch(jdbc, 0);
        }

        void poll() throws Exception {
            long now = System.currentTimeMillis();
            if (!missing.isEmpty()) {
                gaps.setArray(1, connection.createArrayOf("bigint", missing.keySet().toArray()));
                try (ResultSet rs = gaps.executeQuery()) {
                    while (rs.next()) {
                        missing.remove(rs.getLong(1));
                        count(rs);
                    }
                }
                missing.values().removeIf(seen -> now - seen > GAP_MILLIS);
            }
            range.setLong(1, position);
            int rows = 0;
            try (ResultSet rs = range.executeQuery()) {
                while (rs.next()) {
                    rows++;
                    long index = rs.getLong(1);
                    // a wide hole is not a transaction in flight (a sequence jump, rows deleted): not followed
                    if (position > 0 && index - position <= MAX_GAP) {
                        for (long gap = position + 1; gap < index; gap++) {
                            missing.put(gap, now);
                        }
                    }
                    position = index;
                    count(rs);
                }
            }
            caughtUp = rows < BATCH;
        }

        private void count(ResultSet rs) throws Exception {
            String type = rs.getString(2);
            if (type.equals(EVENTS + "PublicationRequestedEvent")) {
                requested++;
            } else if (type.equals(EVENTS + "PublicationSucceededEvent") || rs.getBoolean(3)) {
                succeeded++;
                onSucceeded.accept(rs.getString(4));
            }
        }

        /**
         * How long after this moment the publication view shows every publication of the phase as
         * SUCCEEDED ({@code view_behind_s=…}): what an operator's list lags the provider's answers.
         * Only the ids not yet seen succeeded are asked for again, by primary key.
         */
        String viewBehind(String ws, String prefix, int count) throws Exception {
            List<String> waiting = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                waiting.add(publicationId(ws, prefix + i));
            }
            long from = System.nanoTime();
            long deadline = from + TimeUnit.SECONDS.toNanos(60);
            try (java.sql.PreparedStatement seen = connection.prepareStatement("SELECT /* bench-driver */"
                    + " publication_id FROM publication_view WHERE publication_id = ANY (?) AND status = 'SUCCEEDED'")) {
                while (System.nanoTime() < deadline) {
                    seen.setArray(1, connection.createArrayOf("varchar", waiting.toArray()));
                    try (ResultSet rs = seen.executeQuery()) {
                        java.util.Set<String> done = new java.util.HashSet<>();
                        while (rs.next()) {
                            done.add(rs.getString(1));
                        }
                        waiting.removeAll(done);
                    }
                    if (waiting.isEmpty()) {
                        return String.format(Locale.ROOT, "view_behind_s=%.2f", (System.nanoTime() - from) / 1e9);
                    }
                    Thread.sleep(20);
                }
            }
            return "view_behind_s=>60 not_in_view=" + waiting.size();
        }

        /** The idempotency key (docs/api.md#idempotency-key): the id Herald gives the driver's request. */
        static String publicationId(String ws, String entry) throws Exception {
            String canonical = "v1\n" + ws + "\n" + entry + "\n1\n" + CHANNEL + "\npublish";
            byte[] hash = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(canonical.getBytes(StandardCharsets.UTF_8));
            return "pub_" + java.util.HexFormat.of().formatHex(hash);
        }

        long requested() {
            return requested;
        }

        long succeeded() {
            return succeeded;
        }

        long position() {
            return position;
        }

        boolean caughtUp() {
            return caughtUp;
        }

        @Override
        public void close() throws Exception {
            connection.close();
        }
    }

    /** Sends one publication request; true when Herald accepted it (202, or 200 for one it already had). */
    private static boolean accepted(Http1 http, String key, String ws, String entry) {
        try {
            int status = http.post("/api/v1/workspaces/" + ws + "/publications", key,
                    "{\"calendarEntryId\":\"" + entry + "\",\"contentVersion\":1,\"channelId\":\"" + CHANNEL
                            + "\",\"action\":\"publish\",\"content\":{\"body\":\"Benchmark post " + entry + "\"}}");
            return status == 202 || status == 200;
        } catch (IOException e) {
            return false;
        }
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

    /**
     * The publication requests' HTTP client: HTTP/1.1 over one kept-alive socket, the request
     * written in one piece and the answer's status read, its body skipped. The JDK's client cost
     * about 1.9 ms of CPU per request on the machine Herald was measured on, which shares its cores
     * with Herald; this one costs a small fraction of that. Not thread-safe: one per client thread.
     */
    static final class Http1 implements AutoCloseable {
        private final String host;
        private final int port;
        private Socket socket;
        private BufferedInputStream in;
        private OutputStream out;
        private boolean fresh;

        Http1(String base) {
            URI uri = URI.create(base);
            this.host = uri.getHost();
            this.port = uri.getPort() < 0 ? 80 : uri.getPort();
        }

        /** The answer's status code; a kept-alive connection the server had closed is opened again once. */
        int post(String path, String bearer, String json) throws IOException {
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nAuthorization: Bearer "
                    + bearer + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            while (true) {
                open();
                boolean reused = !fresh;
                fresh = false;
                try {
                    out.write(head);
                    out.write(body);
                    out.flush();
                    return readAnswer();
                } catch (IOException e) {
                    close();
                    if (!reused) {
                        throw e;
                    }
                }
            }
        }

        private void open() throws IOException {
            if (socket == null) {
                socket = new Socket(host, port);
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(60_000);
                in = new BufferedInputStream(socket.getInputStream(), 8192);
                out = new BufferedOutputStream(socket.getOutputStream(), 8192);
                fresh = true;
            }
        }

        private int readAnswer() throws IOException {
            String statusLine = line();
            if (!statusLine.startsWith("HTTP/1.")) {
                throw new IOException("not an HTTP answer: " + statusLine);
            }
            int status = Integer.parseInt(statusLine.substring(9, 12));
            long length = 0;
            boolean chunked = false;
            boolean closes = false;
            for (String header = line(); !header.isEmpty(); header = line()) {
                String lower = header.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(lower.substring(15).trim());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                } else if (lower.startsWith("connection:") && lower.contains("close")) {
                    closes = true;
                }
            }
            if (chunked) {
                for (long chunk = Long.parseLong(line().split(";")[0].trim(), 16); chunk > 0;
                     chunk = Long.parseLong(line().split(";")[0].trim(), 16)) {
                    skip(chunk);
                    line();
                }
                while (!line().isEmpty()) {
                    // trailers
                }
            } else {
                skip(length);
            }
            if (closes) {
                close();
            }
            return status;
        }

        private String line() throws IOException {
            StringBuilder line = new StringBuilder(64);
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new EOFException("connection closed");
                }
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        }

        private void skip(long bytes) throws IOException {
            for (long left = bytes; left > 0; ) {
                long skipped = in.skip(left);
                if (skipped <= 0) {
                    if (in.read() < 0) {
                        throw new EOFException("connection closed");
                    }
                    skipped = 1;
                }
                left -= skipped;
            }
        }

        @Override
        public void close() {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
                socket = null;
            }
        }
    }
}
