package io.herald.deploy.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.deploy.HeraldIntegrationTest;
import io.herald.query.audit.EventStoreReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The load one tenant's audit reads can put on everyone: at most two exports of a workspace at once
 * (the third is 429, another workspace is not held up), each page read through the workspace's
 * index, and each page query cut off by the statement timeout.
 *
 * <p>Scans are held open deterministically: a second connection takes an ACCESS EXCLUSIVE lock on
 * the event table, so every scan's first page waits for it, visibly, in {@code pg_stat_activity}.
 */
class AuditLoadIT extends HeraldIntegrationTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** What a waiting workspace scan looks like in pg_stat_activity (the reader's own SQL). */
    private static final String WAITING_SCANS = """
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND query LIKE '%FROM domain_event_entry%workspace_id = $%'""";

    @Autowired
    DataSource dataSource;

    @Test
    void aThirdConcurrentScanOfOneWorkspaceIsRefusedWhileAnotherWorkspaceScans() throws Exception {
        String busy = workspaceWithEvents("scan-busy");
        String other = workspaceWithEvents("scan-other");
        String busyKey = keyFor("/api/v1/workspaces/" + busy);
        String otherKey = keyFor("/api/v1/workspaces/" + other);

        CompletableFuture<HttpResponse<String>> first;
        CompletableFuture<HttpResponse<String>> second;
        CompletableFuture<HttpResponse<String>> otherWorkspace;
        try (Connection lock = dataSource.getConnection()) {
            lock.setAutoCommit(false);
            try (Statement s = lock.createStatement()) {
                s.execute("LOCK TABLE domain_event_entry IN ACCESS EXCLUSIVE MODE");
            }
            try {
                first = get(busyKey, "/api/v1/workspaces/" + busy + "/audit/events");
                second = get(busyKey, "/api/v1/workspaces/" + busy + "/audit/events?limit=1");
                awaitWaitingScans(2);

                Response third = sendAs(busyKey, "GET", "/api/v1/workspaces/" + busy + "/audit/events", null, null,
                        Map.of());
                assertThat(third.status()).as(third.toString()).isEqualTo(429);
                assertThat(third.contentType()).startsWith("application/problem+json");
                assertThat(third.json().get("code").asText()).isEqualTo("rate_limited");
                assertThat(third.retryAfter()).as("Retry-After").isNotBlank();
                // the verifier's answer is rows of its own table, not a scan: it takes no slot and
                // answers while the event table is locked, once its wait for the live verifier is over
                Response verify = sendAs(busyKey, "GET", "/api/v1/workspaces/" + busy + "/audit/verify", null,
                        null, Map.of());
                assertThat(verify.status()).as(verify.toString()).isEqualTo(200);
                assertThat(verify.json().isArray()).isTrue();

                // another workspace still gets a scan: it reaches the database and waits there too
                otherWorkspace = get(otherKey, "/api/v1/workspaces/" + other + "/audit/events");
                awaitWaitingScans(3);
                assertThat(first).isNotDone();
            } finally {
                lock.rollback();
            }
        }
        assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(first.get().body()).contains("\"aggregateId\"");
        assertThat(second.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        HttpResponse<String> others = otherWorkspace.get(20, TimeUnit.SECONDS);
        assertThat(others.statusCode()).isEqualTo(200);
        assertThat(others.body()).contains("\"workspaceId\":\"" + other + "\"").doesNotContain(busy);
        // the slots were given back
        assertThat(sendAs(busyKey, "GET", "/api/v1/workspaces/" + busy + "/audit/events", null, null, Map.of())
                .status()).isEqualTo(200);
    }

    /**
     * The export's and the verifier's page queries, exactly as the reader sends them, are answered
     * by the workspace indexes, in their order: the workspace is an index condition, not a filter
     * applied to every event, and no page sorts a workspace's events. (Sequential scans and sorts are
     * switched off for the question so that the planner's choice on a small test store does not hide
     * whether an index can serve it: with a workspace of a few events, reading them through the
     * export's index and sorting them cost about as much as reading the verifier's, and the planner
     * took either from run to run. Without the workspace indexes the only candidate is the primary
     * key with a filter on every row; without the verifier's, the stream key of every workspace is
     * read, each row filtered.)
     */
    @Test
    void aWorkspacesPagesAreReadThroughTheWorkspaceIndex() {
        String ws = workspaceWithEvents("scan-index");
        Long stored = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE workspace_id = ?",
                Long.class, ws);
        Long named = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry"
                + " WHERE convert_from(payload, 'UTF8')::jsonb ->> 'workspaceId' = ?", Long.class, ws);
        assertThat(stored).as("events whose workspace column is set").isPositive().isEqualTo(named);
        // computed on append, so it must not fail on an escaped NUL anywhere in the payload (PostgreSQL refuses one)
        assertThat(jdbc.queryForObject("SELECT herald_event_workspace(convert_to(?, 'UTF8'))", String.class,
                "{\"detail\":\"a\\u0000b\",\"escaped\":\"\\\\u0000\",\"workspaceId\":\"" + ws + "\"}"))
                .isEqualTo(ws);

        String export = plan(EventStoreReader.SELECT_IN_STORE_ORDER, new MapSqlParameterSource("after", 0L)
                .addValue("page", 500).addValue("workspace", ws));
        assertThat(export).contains("\"Index Name\": \"domain_event_entry_workspace_position_idx\"")
                .containsPattern("\"Index Cond\": \"[^\"]*workspace_id = ")
                .doesNotContain("Seq Scan").doesNotContain("\"Sort\"");
        String streams = plan(EventStoreReader.SELECT_IN_STREAM_ORDER, new MapSqlParameterSource("aggregate", "")
                .addValue("sequence", -1L).addValue("page", 500).addValue("workspace", ws));
        assertThat(streams).contains("\"Index Name\": \"domain_event_entry_workspace_stream_idx\"")
                .containsPattern("\"Index Cond\": \"[^\"]*workspace_id = ")
                .doesNotContain("Seq Scan").doesNotContain("\"Sort\"");
    }

    /**
     * The live verifier reads the streams of each batch's publications in one query: through the
     * store's stream key (aggregate, sequence), in its order, never the whole store.
     */
    @Test
    void theLiveVerifierReadsABatchsStreamsThroughTheStreamKey() {
        String ws = workspaceWithEvents("scan-streams");
        List<String> publications = jdbc.queryForList("SELECT DISTINCT aggregate_identifier FROM domain_event_entry"
                + " WHERE workspace_id = ? AND aggregate_identifier LIKE 'pub\\_%'", String.class, ws);
        assertThat(publications).isNotEmpty();
        String streams = plan(EventStoreReader.SELECT_STREAMS,
                new MapSqlParameterSource("ids", publications.toArray(String[]::new)));
        assertThat(streams).containsPattern("\"Index Cond\": \"[^\"]*aggregate_identifier\\)::text = ANY")
                .doesNotContain("Seq Scan").doesNotContain("\"Sort\"");
    }

    /** The workspace column is computed on append: a NUL in the content must not make the append fail. */
    @Test
    void anEventWhosePayloadHoldsANulIsStoredWithItsWorkspace() {
        String ws = newWorkspace("scan-nul");
        facebookChannel(ws, "fb-main", "EAAB-token-scan-nul");
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                PublicationScenarios.scheduledRequest("entry-nul", 1, "fb-main", "before\\u0000after"));
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        String id = created.json().get("publicationId").asText();
        assertThat(jdbc.queryForObject("SELECT workspace_id FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " AND sequence_number = 0", String.class, id)).isEqualTo(ws);
    }

    @Test
    void aPageThatOutlastsTheStatementTimeoutIsCancelledByTheDatabase() throws Exception {
        String ws = workspaceWithEvents("scan-timeout");
        EventStoreReader impatient = new EventStoreReader(new NamedParameterJdbcTemplate(dataSource), json,
                Duration.ofMillis(300));
        try (Connection lock = dataSource.getConnection()) {
            lock.setAutoCommit(false);
            try (Statement s = lock.createStatement()) {
                s.execute("LOCK TABLE domain_event_entry IN ACCESS EXCLUSIVE MODE");
            }
            try {
                long started = System.nanoTime();
                assertThatThrownBy(() -> impatient.forEachInStoreOrder(ws, 0, 10, event -> { }))
                        .isInstanceOf(EventStoreReader.ReadTimedOut.class);
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
            } finally {
                lock.rollback();
            }
        }
        // without the lock the same reader reads
        long[] read = new long[1];
        impatient.forEachInStoreOrder(ws, 0, 10, event -> read[0]++);
        assertThat(read[0]).isPositive();
    }

    private String plan(String query, MapSqlParameterSource parameters) {
        String sql = "EXPLAIN (FORMAT JSON) " + query.replace(EventStoreReader.FILTER, EventStoreReader.OF_WORKSPACE);
        return new TransactionTemplate(new DataSourceTransactionManager(dataSource)).execute(status -> {
            jdbc.execute("SET LOCAL enable_seqscan = off");
            jdbc.execute("SET LOCAL enable_sort = off");
            List<String> rows = new NamedParameterJdbcTemplate(jdbc).queryForList(sql, parameters, String.class);
            return String.join("\n", rows);
        });
    }

    /** A workspace with a channel connection and a publication, so its events are in the store. */
    private String workspaceWithEvents(String purpose) {
        String ws = newWorkspace(purpose);
        facebookChannel(ws, "fb-main", "EAAB-token-" + purpose);
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                PublicationScenarios.scheduledRequest("entry-1", 1, "fb-main", "Load " + purpose));
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        // an export lists the events the audit chain holds: chained before the table is locked
        long events = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE workspace_id = ?", Long.class, ws);
        awaitJson("/api/v1/admin/audit/chain", progress -> events == jdbc.queryForObject(
                "SELECT count(*) FROM audit_chain WHERE workspace_id = ?", Long.class, ws));
        return ws;
    }

    private CompletableFuture<HttpResponse<String>> get(String key, String path) {
        return HTTP.sendAsync(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + key).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Polls until this many workspace scans wait on the lock: the state is observed, not slept into. */
    private void awaitWaitingScans(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        long waiting = 0;
        while (System.nanoTime() < deadline) {
            waiting = jdbc.queryForObject(WAITING_SCANS, Long.class);
            if (waiting >= expected) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("expected " + expected + " scans waiting on the lock, saw " + waiting);
    }
}
