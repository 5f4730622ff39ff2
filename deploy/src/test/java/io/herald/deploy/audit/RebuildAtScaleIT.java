package io.herald.deploy.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.testsupport.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * A rebuild gives exactly the rows the live projections built, on a store of a few hundred thousand
 * events: publications of two workspaces and three channels driven through the API, the dispatcher
 * and the provider sandbox (published, with a first comment, failed, retrying, read back, decided),
 * the store then grown with SQL copies of their streams ({@code bench/copy-streams.sql}, the one
 * {@code bench/grown.sh} grows its store with) to {@code -Drebuild.events} events (default
 * {@value #DEFAULT_EVENTS}), which the live projections follow as new events; every projection
 * table snapshotted whole, every projection rebuilt through the admin endpoint at once, and each
 * table compared with its snapshot row by row. {@link ProjectionRebuildIT} does the same on a small
 * store, with rows changed behind the projections' backs and pages of three events.
 *
 * <p>Its own application and database: the copies would be in every other test's counts, and the
 * rebuild's minutes of CPU in their waits.
 */
@TestPropertySource(properties = {
        // an application of its own beside the shared one: its own port, and its sandbox on it
        "herald.test.sandbox-loopback=false",
        // the default page of a rebuild, as a grown store is rebuilt in production (the shared tests use 3)
        "herald.rebuild.page-size=2000"
})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Tag("own-jvm")
class RebuildAtScaleIT extends HeraldIntegrationTest {

    /**
     * Events in the store after the copies, unless {@code -Drebuild.events} says otherwise: 60,000
     * keeps the test under four minutes on two busy cores; 250,000 took 3.7 to 8.5 minutes
     * there, depending on the machine's other work (docs/performance.md).
     */
    static final long DEFAULT_EVENTS = 60_000;
    /** How long the live projections may take to follow the copies, and the rebuilds to finish. */
    private static final Duration CATCH_UP = Duration.ofMinutes(Long.getLong("rebuild.catch-up-minutes", 15));
    private static final TestDatabase OWN = TestDatabase.shared().freshSibling();
    private static final AtomicInteger PAGES = new AtomicInteger();
    /** The audit chain is appended to, never rebuilt; the copies are no part of what it is checked for. */
    private static final String AUDIT_CHAIN = "audit-chain";

    /**
     * Every table the rebuildable projections write, as compared: the whole row, or what of it is
     * not bookkeeping. The counts are spread over slots by the writing thread, which differs between
     * the live processor's segments and a rebuild: summed per key, without the keys that sum to
     * nothing. Not compared, on purpose: the webhook outbox (deliveries are written when something
     * happens, never by a rebuild, which replays what was reported long ago) and the processors'
     * tokens.
     */
    private static final Map<String, String> TABLES = new LinkedHashMap<>();

    static {
        TABLES.put("publication_view", "SELECT to_jsonb(t)::text FROM publication_view t");
        TABLES.put("publication_counts", """
                SELECT jsonb_build_array(workspace_id, channel_id, status, sum(publications), sum(waiting))::text
                FROM publication_counts GROUP BY workspace_id, channel_id, status
                HAVING sum(publications) <> 0 OR sum(waiting) <> 0""");
        TABLES.put("publication_hour_stats", "SELECT to_jsonb(t)::text FROM publication_hour_stats t");
        TABLES.put("answer_time_buckets", "SELECT to_jsonb(t)::text FROM answer_time_buckets t");
        TABLES.put("channel_connection_view", "SELECT to_jsonb(t)::text FROM channel_connection_view t");
        TABLES.put("audit_stream", "SELECT to_jsonb(t)::text FROM audit_stream t");
        TABLES.put("audit_breach", "SELECT to_jsonb(t)::text FROM audit_breach t");
    }

    @DynamicPropertySource
    static void ownDatabase(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", OWN::jdbcUrl);
    }

    @Autowired
    CommandGateway commands;

    @Autowired
    EventProcessingConfiguration processing;

    @Test
    void rebuildingEveryProjectionOfAGrownStoreGivesTheSameRows() throws Exception {
        long target = Long.getLong("rebuild.events", DEFAULT_EVENTS);
        List<String> originals = drivePublications();
        List<String> projections = awaitCaughtUp(headOfStore(), Duration.ofSeconds(90));
        assertThat(projections).contains("publication-view", "channel-view", "audit-verifier");

        long before = eventCount();
        long started = System.nanoTime();
        int copies = grow(target);
        System.out.printf("[rebuild-at-scale] store grown from %,d to %,d events (%d copies of the publication"
                + " streams) in %.1f s%n", before, eventCount(), copies, (System.nanoTime() - started) / 1e9);
        assertThat(eventCount()).isGreaterThanOrEqualTo(target);
        long head = headOfStore();
        started = System.nanoTime();
        awaitCaughtUp(head, CATCH_UP);
        System.out.printf("[rebuild-at-scale] the live projections followed the copies in %.1f s%n",
                (System.nanoTime() - started) / 1e9);

        Map<String, Long> rows = snapshot();
        System.out.println("[rebuild-at-scale] rows snapshotted: " + rows);
        // every table but the breaches, which a store of clean histories does not have
        rows.forEach((table, n) -> assertThat(n).as("rows of " + table)
                .isGreaterThanOrEqualTo(table.equals("audit_breach") ? 0L : 1L));
        // the copies are in the live rows: every original publication and its last copy
        long views = jdbc.queryForObject("SELECT count(*) FROM publication_view WHERE publication_id = ANY(?)",
                Long.class, (Object) originals.stream().flatMap(id -> java.util.stream.Stream.of(id, id + "-c" + copies))
                        .toArray(String[]::new));
        assertThat(views).isEqualTo(2L * originals.size());
        assertThat(rows.get("publication_view")).isGreaterThanOrEqualTo((copies + 1L) * originals.size());
        assertThat(rows.get("audit_stream")).isGreaterThanOrEqualTo((copies + 1L) * originals.size());

        long rebuildStarted = System.nanoTime();
        for (String name : projections) {
            Response rebuild = send("POST", "/api/v1/admin/projections/" + name + "/rebuild", null, null);
            assertThat(rebuild.status()).as(rebuild.toString()).isEqualTo(202);
        }
        awaitRebuilt(projections, head);
        System.out.printf("[rebuild-at-scale] every projection rebuilt at once in %.1f s%n",
                (System.nanoTime() - rebuildStarted) / 1e9);
        for (JsonNode p : send("GET", "/api/v1/admin/projections", null, null).json()) {
            JsonNode rebuild = p.get("rebuild");
            if (projections.contains(p.get("name").asText())) {
                assertThat(p.get("error").isNull()).as(p.toString()).isTrue();
                System.out.printf("[rebuild-at-scale] %-18s %,9d events in %6.1f s: %,7.0f events/s%n",
                        p.get("name").asText(), rebuild.get("eventsDone").asLong(), rebuild.get("seconds").asDouble(),
                        rebuild.get("eventsDone").asLong() / Math.max(rebuild.get("seconds").asDouble(), 1e-3));
            }
        }

        assertThat(headOfStore()).as("nothing was appended since the snapshot").isEqualTo(head);
        List<String> differences = new ArrayList<>();
        TABLES.keySet().forEach(table -> differences.addAll(compare(table)));
        assertThat(differences).as("rows of the rebuilt tables that differ from the live ones").isEmpty();
    }

    /**
     * Publications of every kind, in two workspaces: published through the dispatcher and the
     * sandbox (one with a first comment), scheduled and not yet due, and moved through failure,
     * retry, read-back and decisions with the commands the dispatcher and the result recorder send.
     * Returns their ids, once every one has settled (nothing runs on its own afterwards).
     */
    private List<String> drivePublications() {
        PublicationScenarios drive = new PublicationScenarios(commands);
        Map<String, Map<String, String>> expected = new LinkedHashMap<>();
        List<String> published = new ArrayList<>();
        for (String purpose : List.of("scale-a", "scale-b")) {
            String ws = newWorkspace(purpose);
            Map<String, String> status = new LinkedHashMap<>();
            expected.put(ws, status);
            sandboxPage(ws, "fb-live");
            facebookChannel(ws, "fb-main", "EAAB-token-" + ws);
            if (purpose.equals("scale-a")) {
                sandboxPage(ws, "fb-second");
            }
            published.add(publishNow(ws, "fb-live", "now-1", "{\"body\":\"Published at once\"}"));
            published.add(publishNow(ws, "fb-live", "now-comment", "{\"body\":\"With a comment\","
                    + "\"firstComment\":\"Details below\"}"));
            if (purpose.equals("scale-a")) {
                published.add(publishNow(ws, "fb-second", "now-2", "{\"body\":\"On the second Page\"}"));
            }
            published.stream().filter(id -> !expected.values().stream().anyMatch(m -> m.containsKey(id)))
                    .toList().forEach(id -> status.put(id, "SUCCEEDED"));
            status.put(request(ws, "requested"), "REQUESTED");
            String succeeded = request(ws, "succeeded");
            drive.succeed(succeeded, drive.startAttempt(succeeded));
            status.put(succeeded, "SUCCEEDED");
            String failed = request(ws, "failed");
            drive.rejected(failed, drive.startAttempt(failed));
            status.put(failed, "FAILED");
            String retrying = request(ws, "retrying");
            drive.notSentRetryTomorrow(retrying, drive.startAttempt(retrying));
            status.put(retrying, "RETRY_SCHEDULED");
            // none is left OUTCOME_UNKNOWN: its automatic read-back would add events mid-test
            String found = request(ws, "found");
            drive.unknown(found, drive.startAttempt(found));
            drive.readBack(found, 1, ReconciliationResult.FOUND, "one post with the same text in the window");
            status.put(found, "SUCCEEDED");
            String notPublished = request(ws, "not-published");
            drive.unknown(notPublished, drive.startAttempt(notPublished));
            decide(ws, notPublished, "{\"decision\":\"confirm_not_published\",\"note\":\"not on the Page\"}");
            status.put(notPublished, "NOT_EXECUTED");
            String confirmed = request(ws, "confirmed");
            drive.rejected(confirmed, drive.startAttempt(confirmed));
            decide(ws, confirmed, "{\"decision\":\"confirm_published\",\"providerRef\":{\"id\":\"1234567890_9\","
                    + "\"url\":\"https://www.facebook.com/1234567890_9\"},\"note\":\"posted by hand\"}");
            status.put(confirmed, "SUCCEEDED");
            String abandoned = request(ws, "abandoned");
            drive.unknown(abandoned, drive.startAttempt(abandoned));
            decide(ws, abandoned, "{\"decision\":\"abandon\",\"note\":\"campaign cancelled\"}");
            status.put(abandoned, "ABANDONED");
        }
        List<String> ids = new ArrayList<>();
        expected.forEach((ws, status) -> status.forEach((id, wanted) -> {
            awaitJson("/api/v1/workspaces/" + ws + "/publications/" + id,
                    v -> v.get("status").asText().equals(wanted) && (!published.contains(id) || settled(v)));
            ids.add(id);
        }));
        return ids;
    }

    /** No step of it is pending or unknown: the dispatcher has nothing more to do for it. */
    private static boolean settled(JsonNode view) {
        JsonNode steps = view.get("steps");
        if (steps == null) {
            return true;
        }
        for (JsonNode step : steps) {
            String status = step.get("status").asText();
            if (status.equals("PENDING") || status.equals("OUTCOME_UNKNOWN")) {
                return false;
            }
        }
        return true;
    }

    /** A Facebook Page the sandbox knows, connected as channel {@code channel}: its posts are published. */
    private void sandboxPage(String ws, String channel) {
        String page = "88" + PAGES.incrementAndGet() + System.nanoTime() % 100_000;
        String token = "EAAB-scale-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel, "{\"type\":\"facebook\","
                + "\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token + "\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
    }

    private String publishNow(String ws, String channel, String entry, String content) {
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications", """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"%s","action":"publish","content":%s}"""
                .formatted(entry, channel, content));
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        return created.json().get("publicationId").asText();
    }

    private String request(String ws, String entry) {
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                PublicationScenarios.scheduledRequest(entry, 1, "fb-main", "At scale " + entry));
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        return created.json().get("publicationId").asText();
    }

    private void decide(String ws, String id, String body) {
        Response decided = send("POST", "/api/v1/workspaces/" + ws + "/publications/" + id + "/decisions", body);
        assertThat(decided.status()).as(decided.toString()).isEqualTo(200);
    }

    /**
     * Copies the stored publication streams until the store holds {@code target} events, as
     * {@code bench/grown.sh} does. The processors that act on events (the dispatcher) and the audit
     * chain are stopped and moved past the copies first, so no copy is published again; the
     * projections and the live verifier are left where they are and handle the copies as new events.
     * Every processor is stopped while the copies are written: they are written in one transaction,
     * and a processor reading the head of the store meanwhile may see an event appended after the
     * copies' indexes were taken and committed before them, and take the copies for a gap wider than
     * the store's reader keeps (Axon gives up gaps more than 10,000 indexes behind), as it does for
     * any single transaction that appends that many events. Returns the number of copies.
     */
    private int grow(long target) throws IOException, InterruptedException, ExecutionException {
        List<StreamingEventProcessor> movedPast = new ArrayList<>();
        List<StreamingEventProcessor> every = new ArrayList<>();
        for (JsonNode p : send("GET", "/api/v1/admin/projections", null, null).json()) {
            String name = p.get("name").asText();
            processing.eventProcessor(name, StreamingEventProcessor.class).ifPresent(every::add);
            if (!p.get("projection").asBoolean() || name.equals(AUDIT_CHAIN)) {
                processing.eventProcessor(name, StreamingEventProcessor.class).ifPresent(movedPast::add);
            }
        }
        assertThat(movedPast).extracting(StreamingEventProcessor::getName).contains("publication-dispatcher");
        for (StreamingEventProcessor processor : every) {
            processor.shutdownAsync().get();
        }
        // the tests run in the module's folder
        String sql = Files.readString(Path.of("..", "bench", "copy-streams.sql"), StandardCharsets.UTF_8);
        int copies = jdbc.execute((ConnectionCallback<Integer>) connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql);
                try (ResultSet rs = statement.executeQuery("SELECT pg_temp.copy_publication_streams(" + target + ")")) {
                    rs.next();
                    int n = rs.getInt(1);
                    statement.execute("DROP FUNCTION pg_temp.copy_publication_streams(bigint), pg_temp.shifted(text, interval)");
                    return n;
                }
            }
        });
        // written a moment ago: vacuumed now, as autovacuum would have done long before anyone rebuilt
        jdbc.execute("VACUUM (ANALYZE) domain_event_entry");
        List<String> names = movedPast.stream().map(StreamingEventProcessor::getName).toList();
        int moved = jdbc.update("""
                UPDATE token_entry SET token = convert_to(regexp_replace(convert_from(token, 'UTF8'),
                        '"index":[0-9]+', '"index":' || (SELECT max(global_index) FROM domain_event_entry)), 'UTF8')
                WHERE token IS NOT NULL AND processor_name = ANY(?)""", (Object) names.toArray(String[]::new));
        assertThat(moved).as("tokens moved past the copies").isPositive();
        every.forEach(StreamingEventProcessor::start);
        return copies;
    }

    /** Every table of {@link #TABLES} as it is now, its rows in order, in a table of its own; returns the counts. */
    private Map<String, Long> snapshot() {
        jdbc.execute("CREATE SCHEMA rebuild_snapshot");
        Map<String, Long> counts = new LinkedHashMap<>();
        TABLES.forEach((table, rows) -> {
            jdbc.execute("CREATE TABLE rebuild_snapshot." + table + " AS " + ordered(rows));
            counts.put(table, jdbc.queryForObject("SELECT count(*) FROM rebuild_snapshot." + table, Long.class));
        });
        return counts;
    }

    /** The rows numbered in their order: every column of a row, so the order is total. */
    private static String ordered(String rows) {
        return "SELECT row_number() OVER (ORDER BY r COLLATE \"C\") AS n, r FROM (" + rows + ") AS rows(r)";
    }

    /** The snapshot's rows against the table's rows now, row by row: the first few that differ, and how many. */
    private List<String> compare(String table) {
        String differing = "FROM rebuild_snapshot." + table + " a FULL JOIN (" + ordered(TABLES.get(table))
                + ") b USING (n) WHERE a.r IS DISTINCT FROM b.r";
        long count = jdbc.queryForObject("SELECT count(*) " + differing, Long.class);
        List<String> found = new ArrayList<>();
        if (count > 0) {
            found.add(table + ": " + count + " rows differ; the first ones (row number, live, rebuilt):");
            found.addAll(jdbc.query("SELECT n, a.r AS live, b.r AS rebuilt " + differing + " ORDER BY n LIMIT 3",
                    (rs, i) -> "  row " + rs.getLong("n") + "\n    live:    " + rs.getString("live")
                            + "\n    rebuilt: " + rs.getString("rebuilt")));
        }
        return found;
    }

    /** Waits until every rebuild has finished and every projection has caught up with {@code head} again. */
    private void awaitRebuilt(List<String> projections, long head) {
        long deadline = System.nanoTime() + CATCH_UP.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = send("GET", "/api/v1/admin/projections", null, null).json();
            boolean done = true;
            for (JsonNode p : last) {
                if (projections.contains(p.get("name").asText())) {
                    JsonNode rebuild = p.get("rebuild");
                    done &= rebuild != null && !rebuild.isNull() && !rebuild.get("running").asBoolean();
                    assertThat(p.get("error").isNull()).as(p.toString()).isTrue();
                }
            }
            if (done) {
                awaitCaughtUp(head, CATCH_UP);
                return;
            }
            pause();
        }
        throw new AssertionError("rebuilds not done: " + last);
    }

    /**
     * Waits until every projection (and the audit chain) is claimed, caught up and at least at
     * {@code head}; returns the projections' names.
     */
    private List<String> awaitCaughtUp(long head, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = send("GET", "/api/v1/admin/projections", null, null).json();
            List<String> projections = new ArrayList<>();
            boolean allCaughtUp = true;
            for (JsonNode p : last) {
                if (p.get("projection").asBoolean()) {
                    projections.add(p.get("name").asText());
                    allCaughtUp &= p.get("caughtUp").asBoolean();
                    // a segment whose batch failed is given up and claimed again later: until then it is not listed
                    allCaughtUp &= p.get("segments").size() == jdbc.queryForObject(
                            "SELECT count(*) FROM token_entry WHERE processor_name = ?", Integer.class,
                            p.get("name").asText());
                    for (JsonNode segment : p.get("segments")) {
                        allCaughtUp &= segment.get("position").asLong(-1) >= head;
                    }
                }
            }
            if (allCaughtUp && !projections.isEmpty()) {
                return projections;
            }
            pause();
        }
        throw new AssertionError("projections not caught up with position " + head + ": " + last);
    }

    private long headOfStore() {
        return jdbc.queryForObject("SELECT coalesce(max(global_index), 0) FROM domain_event_entry", Long.class);
    }

    private static void pause() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
