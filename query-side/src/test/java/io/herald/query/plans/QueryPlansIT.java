package io.herald.query.plans;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.query.ReadStore;
import io.herald.query.channel.ChannelViewRepository;
import io.herald.query.counts.FindPublicationCountsQuery;
import io.herald.query.counts.PublicationCountsQueryHandler;
import io.herald.query.decisionqueue.DecisionQueueQueryHandler;
import io.herald.query.decisionqueue.FindDecisionQueueQuery;
import io.herald.query.publication.PublicationCursor;
import io.herald.query.publication.PublicationListRequest;
import io.herald.query.publication.PublicationSearch;
import io.herald.query.publication.PublicationViewRepository;
import io.herald.query.stats.FindPublicationStatsQuery;
import io.herald.query.stats.PublicationStatsQueryHandler;
import io.herald.query.stats.PublicationStatsRepository;
import io.herald.query.stats.StatsWindow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.ResultSetExtractor;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterUtils;
import org.springframework.jdbc.core.namedparam.ParsedSql;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Every list the operator and the auditor read, on a workspace of a few hundred thousand
 * publications, is answered from an index and stops after its page: the statements are those the
 * repositories and query handlers send (captured as they send them, so a change of their SQL is
 * what is planned here), planned as prepared statements are planned after a few runs (a generic
 * plan, which knows no parameter value), with sequential scans switched off so that the question
 * is whether an index serves the query, not which of two cheap plans the planner prefers.
 */
class QueryPlansIT {

    private static final String WS = "plans-big";
    private static final String OTHER = "plans-other";
    private static final int PUBLICATIONS = 300_000;
    private static final int CHANNELS = 50;
    private static final Instant NOW = Instant.parse("2027-01-01T00:00:00Z");

    private static final ReadStore store = ReadStore.shared();
    private static final AtomicInteger PREPARED = new AtomicInteger();

    private final Capturing capturing = new Capturing(store.jdbc());
    private final PublicationViewRepository publications =
            new PublicationViewRepository(capturing, store.objectMapper());

    @BeforeAll
    static void growTheWorkspace() {
        removeRows();
        var sql = store.jdbc().getJdbcTemplate();
        // one publication every 100 s for most of a year, over 50 channels; 1 % held, 1 % waiting for a decision
        sql.update("""
                INSERT INTO publication_view (publication_id, workspace_id, calendar_entry_id, content_version,
                    channel_id, channel_type, action, status, content_hash, requested_at, updated_at, needs_decision,
                    last_sequence)
                SELECT 'pub_' || ws || '_' || lpad(i::text, 7, '0'), ws, 'entry-' || lpad((i / 4)::text, 6, '0'), 1,
                       'ch-' || (i % ?), 'facebook', 'PUBLISH',
                       CASE WHEN i % 100 = 0 THEN 'HELD' WHEN i % 100 = 1 THEN 'OUTCOME_UNKNOWN'
                            WHEN i % 7 = 0 THEN 'FAILED' ELSE 'SUCCEEDED' END,
                       'hash', ?::timestamptz - (i * interval '100 seconds'), ?::timestamptz, i % 100 = 1, 3
                FROM generate_series(1, ?) i, (VALUES (?), (?)) AS w(ws)
                WHERE ws = ? OR i <= ? / 10""",
                CHANNELS, Timestamp.from(NOW), Timestamp.from(NOW), PUBLICATIONS, WS, OTHER, WS, PUBLICATIONS);
        // the counts as the projection keeps them: every key's count spread over the 16 slots
        sql.update("""
                INSERT INTO publication_counts (workspace_id, channel_id, status, slot, publications, waiting)
                SELECT workspace_id, channel_id, status, slot, count(*), count(*) FILTER (WHERE needs_decision)
                FROM (SELECT *, (hashtext(publication_id) & 15)::smallint AS slot FROM publication_view
                      WHERE workspace_id IN (?, ?)) p
                GROUP BY workspace_id, channel_id, status, slot""", WS, OTHER);
        sql.update("""
                INSERT INTO channel_connection_view (workspace_id, channel_id, connection_id, type, settings,
                    auto_reattempt, credential_version, updated_at, last_sequence)
                SELECT ?, 'ch-' || c, 'conn-' || ? || '-' || c, 'linkedin', '{"type":"linkedin"}'::jsonb, false, 1,
                       now(), 0
                FROM generate_series(0, ? - 1) c""", WS, WS, CHANNELS);
        // a year of hours, six kinds each; a month of answer times of every channel
        sql.update("""
                INSERT INTO publication_hour_stats (workspace_id, hour, kind, publications)
                SELECT ?, ?::timestamptz - h * interval '1 hour', k, 10
                FROM generate_series(1, 24 * 365) h,
                     unnest(ARRAY['SUCCEEDED','FAILED','OUTCOME_UNKNOWN','HELD','CASE_OPENED','CASE_CLOSED']) k""",
                WS, Timestamp.from(NOW));
        sql.update("""
                INSERT INTO answer_time_buckets (workspace_id, channel_id, hour, bucket, answers)
                SELECT ?, 'ch-' || c, ?::timestamptz - h * interval '1 hour', 60 + b, 3
                FROM generate_series(1, 24 * 30) h, generate_series(0, ? - 1) c, generate_series(0, 4) b""",
                WS, Timestamp.from(NOW), CHANNELS);
        sql.execute("ANALYZE publication_view");
        sql.execute("ANALYZE publication_counts");
        sql.execute("ANALYZE channel_connection_view");
        sql.execute("ANALYZE publication_hour_stats");
        sql.execute("ANALYZE answer_time_buckets");
    }

    @AfterAll
    static void removeRows() {
        var sql = store.jdbc().getJdbcTemplate();
        for (String table : List.of("publication_view", "publication_counts", "channel_connection_view",
                "publication_hour_stats", "answer_time_buckets")) {
            sql.update("DELETE FROM " + table + " WHERE workspace_id IN (?, ?)", WS, OTHER);
        }
    }

    @Test
    void theNewestPageIsTheListIndexInItsOwnOrder() {
        Plan plan = planOf(() -> publications.list(request(null, null, null, null, PublicationListRequest.Order.NEWEST_FIRST)));
        plan.readsPageThrough("publication_view_list_idx");
    }

    @Test
    void aStatusFilterIsTheStatusIndexInItsOwnOrder() {
        Plan plan = planOf(() -> publications.list(
                request(PublicationStatus.FAILED, null, null, null, PublicationListRequest.Order.NEWEST_FIRST)));
        plan.readsPageThrough("publication_view_status_idx");
    }

    @Test
    void aChannelFilterIsTheChannelIndexInItsOwnOrder() {
        Plan plan = planOf(() -> publications.list(
                request(null, ChannelId.of("ch-7"), null, null, PublicationListRequest.Order.NEWEST_FIRST)));
        plan.readsPageThrough("publication_view_channel_idx");
    }

    @Test
    void theFifthPageStartsAtItsCursorInTheIndex() {
        Map<String, Object> fourthEnds = store.jdbc().getJdbcTemplate().queryForMap("""
                SELECT requested_at, publication_id FROM publication_view WHERE workspace_id = ?
                ORDER BY requested_at DESC, publication_id DESC OFFSET 199 LIMIT 1""", WS);
        PublicationCursor cursor = new PublicationCursor(((Timestamp) fourthEnds.get("requested_at")).toInstant(),
                (String) fourthEnds.get("publication_id"));
        Plan plan = planOf(() -> publications.list(
                request(null, null, null, cursor, PublicationListRequest.Order.NEWEST_FIRST)));
        plan.readsPageThrough("publication_view_list_idx");
        assertThat(plan.text()).containsPattern("\"Index Cond\": \"[^\"]*ROW\\(requested_at, \\(publication_id\\)::text\\) < ROW\\(\\$");
    }

    @Test
    void findingByEntryPrefixReadsOnlyTheMatchingRangeOfTheEntryIndex() {
        Plan plan = planOf(() -> publications.list(request(null, null, null, null,
                PublicationListRequest.Order.NEWEST_FIRST), new PublicationSearch(null, null, null, "entry-01234")));
        plan.findsThroughIdAndEntryRange();
    }

    @Test
    void findingByIdReadsThePrimaryKey() {
        Plan plan = planOf(() -> publications.list(request(null, null, null, null,
                PublicationListRequest.Order.NEWEST_FIRST), new PublicationSearch(null, null, null,
                "pub_" + WS + "_0001234")));
        plan.findsThroughIdAndEntryRange();
        Plan one = planOf(() -> publications.find(WorkspaceId.of(WS), PublicationId.of("pub_" + WS + "_0001234")));
        one.uses("publication_view_pkey").hasNoSeqScan();
    }

    @Test
    void anEntrysPublicationsAreReadThroughTheEntryIndex() {
        Plan plan = planOf(() -> publications.list(request(null, null, "entry-001234", null,
                PublicationListRequest.Order.NEWEST_FIRST)));
        plan.uses("publication_view_entry_prefix_idx").hasNoSeqScan().doesNotUse("publication_view_list_idx");
    }

    @Test
    void theDecisionQueueIsItsPartialIndexInItsOwnOrder() {
        DecisionQueueQueryHandler queue = new DecisionQueueQueryHandler(publications);
        Plan plan = planOf(() -> queue.handle(new FindDecisionQueueQuery(WorkspaceId.of(WS), null, null, 50)));
        plan.readsPageThrough("publication_view_decision_idx");
    }

    /** Each connection's held publications are its few counter rows, not its held publications. */
    @Test
    void theChannelListingReadsHeldCountsFromTheCounterKey() {
        ChannelViewRepository channels = new ChannelViewRepository(capturing, store.objectMapper());
        Plan plan = planOf(() -> channels.findAll(WorkspaceId.of(WS)));
        plan.uses("channel_connection_view_pkey").uses("publication_counts_pkey").uses("connection_budget_pkey")
                .hasNoSeqScan().doesNotRead("publication_view");
        assertThat(plan.text()).containsPattern("\"Index Cond\": \"[^\"]*status\\)::text = 'HELD'");
    }

    /** The counts are the workspace's counter rows (a few per channel and status), never its publications. */
    @Test
    void theCountsReadTheWorkspacesCounterRowsThroughTheirKey() {
        PublicationCountsQueryHandler counts = new PublicationCountsQueryHandler(capturing);
        Plan plan = planOf(() -> counts.handle(new FindPublicationCountsQuery(WorkspaceId.of(WS))));
        plan.uses("publication_counts_pkey").hasNoSeqScan().doesNotRead("publication_view");
        assertThat(plan.text()).containsPattern("\"Index Cond\": \"[^\"]*workspace_id\\)::text = \\$1");
    }

    @Test
    void theStatsOfADayAndOfAWeekReadTheirHoursThroughTheKeys() {
        PublicationStatsQueryHandler stats = new PublicationStatsQueryHandler(new PublicationStatsRepository(capturing));
        for (StatsWindow window : StatsWindow.values()) {
            List<Plan> plans = plansOf(() -> stats.handle(new FindPublicationStatsQuery(WorkspaceId.of(WS), window, NOW)));
            assertThat(plans).hasSize(2);
            plans.get(0).uses("publication_hour_stats_pkey").hasNoSeqScan();
            plans.get(1).uses("answer_time_buckets_pkey").hasNoSeqScan();
        }
    }

    private static PublicationListRequest request(PublicationStatus status, ChannelId channel, String entry,
                                                  PublicationCursor after, PublicationListRequest.Order order) {
        return new PublicationListRequest(WorkspaceId.of(WS), status, channel, entry, null, after, 50, order);
    }

    private Plan planOf(Runnable call) {
        List<Plan> plans = plansOf(call);
        assertThat(plans).as("statements sent").hasSize(1);
        return plans.get(0);
    }

    /** Runs the code with statements captured instead of sent, then asks the planner about each. */
    private List<Plan> plansOf(Runnable call) {
        capturing.statements.clear();
        call.run();
        List<Plan> plans = new ArrayList<>();
        for (Statement statement : capturing.statements) {
            plans.add(explain(statement));
        }
        return plans;
    }

    /**
     * The plan a prepared statement gets once PostgreSQL plans it for any parameter values: EXPLAIN
     * of a statement with parameters would plan it for the values given, which can hide a condition
     * no index serves without knowing the value (a LIKE on a parameter, for one).
     */
    private static Plan explain(Statement statement) {
        ParsedSql parsed = NamedParameterUtils.parseSqlStatement(statement.sql());
        String positional = NamedParameterUtils.substituteNamedParameters(parsed, statement.parameters());
        Object[] values = NamedParameterUtils.buildValueArray(parsed, statement.parameters(), null);
        StringBuilder numbered = new StringBuilder();
        int n = 0;
        for (char c : positional.toCharArray()) {
            if (c == '?') {
                numbered.append('$').append(++n);
            } else {
                numbered.append(c);
            }
        }
        List<String> arguments = new ArrayList<>();
        for (Object value : values) {
            arguments.add(literal(value instanceof SqlParameterValue v ? v.getValue() : value));
        }
        String name = "planned_" + PREPARED.incrementAndGet();
        var sql = store.jdbc().getJdbcTemplate();
        var transactions = new TransactionTemplate(new DataSourceTransactionManager(sql.getDataSource()));
        String json = transactions.execute(status -> {
            sql.execute("SET LOCAL enable_seqscan = off");
            sql.execute("SET LOCAL plan_cache_mode = force_generic_plan");
            sql.execute("PREPARE " + name + " AS " + numbered);
            String plan = String.join("\n", sql.queryForList("EXPLAIN (FORMAT JSON) EXECUTE " + name
                    + (arguments.isEmpty() ? "" : "(" + String.join(", ", arguments) + ")"), String.class));
            sql.execute("DEALLOCATE " + name);
            return plan;
        });
        try {
            return new Plan(statement.sql(), json, store.objectMapper().readTree(json).get(0).get("Plan"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** EXECUTE takes no bind parameters inside EXPLAIN: the values are written as literals. */
    private static String literal(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof Timestamp t) {
            return "'" + t.toInstant() + "'::timestamptz";
        }
        if (value instanceof String[] texts) {
            List<String> items = new ArrayList<>();
            for (String text : texts) {
                items.add(literal(text));
            }
            return "ARRAY[" + String.join(", ", items) + "]::text[]";
        }
        return "'" + value.toString().replace("'", "''") + "'";
    }

    private record Statement(String sql, SqlParameterSource parameters) {
    }

    /** Records what the code would send and answers with no rows. */
    private static final class Capturing extends NamedParameterJdbcTemplate {
        final List<Statement> statements = new ArrayList<>();

        Capturing(NamedParameterJdbcTemplate real) {
            super(real.getJdbcTemplate());
        }

        @Override
        public <T> List<T> query(String sql, SqlParameterSource paramSource, RowMapper<T> rowMapper) {
            statements.add(new Statement(sql, paramSource));
            return List.of();
        }

        @Override
        public void query(String sql, SqlParameterSource paramSource, RowCallbackHandler rch) {
            statements.add(new Statement(sql, paramSource));
        }

        @Override
        public <T> T query(String sql, SqlParameterSource paramSource, ResultSetExtractor<T> rse) {
            throw new AssertionError("not expected here: " + sql);
        }
    }

    private record Plan(String sql, String text, JsonNode root) {

        /** The page: a Limit over one index read in the index's order, nothing sorted, nothing scanned whole. */
        void readsPageThrough(String index) {
            assertThat(root.path("Node Type").asText()).as(describe()).isEqualTo("Limit");
            uses(index).hasNoSeqScan();
            List<String> types = new ArrayList<>();
            walk(root, node -> types.add(node.path("Node Type").asText()));
            assertThat(types).as(describe()).doesNotContain("Sort", "Incremental Sort", "Bitmap Heap Scan");
            assertThat(text).as(describe()).containsPattern("\"Index Cond\": \"[^\"]*workspace_id\\)::text = \\$1");
        }

        /**
         * A search: the id through the primary key, the entry as a range of the pattern-ops index;
         * only the matches are sorted, never the workspace's list.
         */
        void findsThroughIdAndEntryRange() {
            uses("publication_view_pkey").uses("publication_view_entry_prefix_idx").hasNoSeqScan()
                    .doesNotUse("publication_view_list_idx");
            assertThat(root.path("Node Type").asText()).as(describe()).isEqualTo("Limit");
            assertThat(text).as(describe()).contains("~>=~").contains("~<~")
                    .containsPattern("\"Index Cond\": \"[^\"]*calendar_entry_id\\)::text ~>=~");
        }

        Plan uses(String index) {
            assertThat(text).as(describe()).contains("\"Index Name\": \"" + index + "\"");
            return this;
        }

        Plan doesNotUse(String index) {
            assertThat(text).as(describe()).doesNotContain("\"Index Name\": \"" + index + "\"");
            return this;
        }

        Plan doesNotRead(String table) {
            assertThat(text).as(describe()).doesNotContain("\"Relation Name\": \"" + table + "\"");
            return this;
        }

        Plan hasNoSeqScan() {
            assertThat(text).as(describe()).doesNotContain("Seq Scan");
            return this;
        }

        private String describe() {
            return sql + "\n" + text;
        }

        private static void walk(JsonNode node, Consumer<JsonNode> visit) {
            visit.accept(node);
            for (JsonNode child : node.path("Plans")) {
                walk(child, visit);
            }
        }
    }
}
