package io.herald.query.audit;

import org.springframework.boot.context.properties.EnableConfigurationProperties;

import org.springframework.beans.factory.annotation.Autowired;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Reads Axon's {@code domain_event_entry} for auditors. Payloads and metadata are the Jackson JSON
 * the store was written with, returned as JSON trees rather than Java objects, so an auditor sees
 * exactly what is stored, whichever revision it is.
 *
 * <p>Long reads go in keyset pages of {@link #PAGE} rows on an index (global index, or aggregate
 * and sequence), so memory stays flat however large the store is, and no read holds a transaction
 * or cursor open while the caller writes to a slow client. One workspace's reads use the store's
 * {@code workspace_id} column and its indexes, never a parse of every stored event; each page
 * query runs under {@code herald.audit.statement-timeout}, so no request holds the database
 * longer than that per page.
 */
@Repository
@EnableConfigurationProperties(AuditProperties.class)
public class EventStoreReader {

    static final int PAGE = 500;
    /** PostgreSQL's query_canceled, which a statement timeout raises. */
    private static final String QUERY_CANCELED = "57014";

    private static final String COLUMNS = """
            global_index, aggregate_identifier, sequence_number, payload_type, payload_revision, time_stamp,
            payload, meta_data""";
    /** Every Herald event names its workspace; the store keeps it in an indexed generated column. */
    public static final String OF_WORKSPACE = " AND workspace_id = :workspace";
    private static final String PUBLICATION_EVENTS = "payload_type LIKE 'io.herald.contracts.publication.%'";
    public static final String FILTER = "{workspace filter}";
    /** Public so a test can ask the planner how the very query reads one workspace's page. */
    public static final String SELECT_IN_STORE_ORDER = "SELECT " + COLUMNS + " FROM domain_event_entry"
            + " WHERE global_index > :after" + FILTER + " ORDER BY global_index LIMIT :page";
    /** What the live verifier reads for each batch: the streams of the batch's publications. */
    public static final String SELECT_STREAMS = "SELECT " + COLUMNS + " FROM domain_event_entry"
            + " WHERE aggregate_identifier = ANY(:ids) ORDER BY aggregate_identifier, sequence_number";
    public static final String SELECT_IN_STREAM_ORDER = "SELECT " + COLUMNS + " FROM domain_event_entry"
            + " WHERE (aggregate_identifier, sequence_number) > (:aggregate, :sequence) AND " + PUBLICATION_EVENTS
            + FILTER + " ORDER BY aggregate_identifier, sequence_number LIMIT :page";

    /** The export: chained events in chain order, with their links. */
    public static final String SELECT_IN_CHAIN_ORDER = "SELECT " + COLUMNS.replace("global_index", "e.global_index")
            + ", c.chain_order, c.workspace_id AS chain, c.prev_hash, c.hash FROM domain_event_entry e"
            + " JOIN audit_chain c ON c.global_index = e.global_index"
            + " WHERE c.chain_order > :after" + FILTER + " ORDER BY c.chain_order LIMIT :page";

    /** The chain rows of a range of chain positions, each with the event at its position if there is one. */
    private static final String SELECT_LINKS = "SELECT " + COLUMNS.replace("global_index", "e.global_index")
            + ", c.global_index AS chained_at, c.chain_order, c.workspace_id AS chain, c.prev_hash, c.hash"
            + " FROM audit_chain c LEFT JOIN domain_event_entry e ON e.global_index = c.global_index"
            + " WHERE c.chain_order > :after AND c.chain_order <= :through ORDER BY c.chain_order LIMIT :page";

    private final NamedParameterJdbcTemplate jdbc;
    private final ObjectMapper json;
    private final TransactionTemplate readOnly;
    private final long statementTimeoutMillis;

    @Autowired
    public EventStoreReader(NamedParameterJdbcTemplate jdbc, ObjectMapper objectMapper, AuditProperties properties) {
        this(jdbc, objectMapper, properties.statementTimeout());
    }

    public EventStoreReader(NamedParameterJdbcTemplate jdbc, ObjectMapper objectMapper, Duration statementTimeout) {
        this.jdbc = jdbc;
        this.json = objectMapper;
        // its own manager on the same pool: the command-line verifier has no application one
        this.readOnly = new TransactionTemplate(new DataSourceTransactionManager(jdbc.getJdbcTemplate().getDataSource()));
        this.readOnly.setReadOnly(true);
        this.statementTimeoutMillis = Math.max(1, statementTimeout.toMillis());
    }

    /** One aggregate's stream in sequence order; empty when there is none. */
    public List<StoredEvent> stream(String aggregateId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM domain_event_entry WHERE aggregate_identifier = :id"
                        + " ORDER BY sequence_number",
                new MapSqlParameterSource("id", aggregateId), (rs, n) -> event(rs));
    }

    /**
     * The streams of these aggregates, each in sequence order, one after another: one read through
     * the store's stream key, whatever the number of streams.
     */
    public List<StoredEvent> streams(Collection<String> aggregateIds) {
        if (aggregateIds.isEmpty()) {
            return List.of();
        }
        return jdbc.query(SELECT_STREAMS, new MapSqlParameterSource("ids", aggregateIds.toArray(String[]::new)),
                (rs, n) -> event(rs));
    }

    /** How many publication events the store holds: a full verification's total (a scan: for the background). */
    public long publicationEventCount() {
        Long count = jdbc.getJdbcTemplate().queryForObject(
                "SELECT count(*) FROM domain_event_entry WHERE " + PUBLICATION_EVENTS, Long.class);
        return count == null ? 0 : count;
    }

    /**
     * The store's last position, or null when it could not be read within {@code within} (the
     * event table locked, say): read from the end of the primary key, whatever the store's size.
     */
    public Long head(Duration within) {
        try {
            return readOnly.execute(status -> {
                jdbc.getJdbcTemplate().execute("SET LOCAL statement_timeout = " + Math.max(1, within.toMillis()));
                return jdbc.getJdbcTemplate().queryForObject("SELECT max(global_index) FROM domain_event_entry",
                        Long.class);
            });
        } catch (DataAccessException failure) {
            if (canceled(failure)) {
                return null;
            }
            throw failure;
        }
    }

    /**
     * The store's events in store order after {@code after}, at most {@code limit} of them.
     *
     * @param workspace only this workspace's events; null for the whole store
     * @param limit     0 or less for no limit
     * @return how many were handed to {@code sink}
     */
    public long forEachInStoreOrder(String workspace, long after, long limit, Consumer<StoredEvent> sink) {
        long handed = 0;
        long position = after;
        while (limit <= 0 || handed < limit) {
            int page = limit <= 0 ? PAGE : (int) Math.min(PAGE, limit - handed);
            MapSqlParameterSource p = new MapSqlParameterSource("after", position).addValue("page", page);
            String filter = "";
            if (workspace != null) {
                filter = OF_WORKSPACE;
                p.addValue("workspace", workspace);
            }
            List<StoredEvent> events = page(SELECT_IN_STORE_ORDER.replace(FILTER, filter), p);
            for (StoredEvent event : events) {
                sink.accept(event);
                position = event.position();
            }
            handed += events.size();
            if (events.size() < page) {
                break;
            }
        }
        return handed;
    }

    /**
     * An event with the workspace the store's column names for it (null when none), whether the
     * audit chain holds it already, and, read with it, the head of that workspace's chain as it is
     * now ({@code headOrder} null: the chain has no row yet) and the chain's last position over
     * all workspaces.
     */
    public record Located(StoredEvent event, String workspaceId, boolean chained, Long headPosition, Long headOrder,
                          String headHash, long headEvents, long lastChainOrder) {
    }

    /**
     * The events at these positions, in store order, with their chains' heads (a position with no
     * event is left out): one statement, so the chain reads a batch in one go.
     */
    public List<Located> at(Collection<Long> positions) {
        if (positions.isEmpty()) {
            return List.of();
        }
        return jdbc.query("SELECT " + COLUMNS.replace("global_index", "e.global_index") + ", e.workspace_id,"
                        + " c.global_index IS NOT NULL AS chained, h.global_index AS head_position,"
                        + " h.chain_order AS head_order, h.hash AS head_hash, h.events AS head_events,"
                        + " (SELECT COALESCE(max(chain_order), 0) FROM audit_chain) AS last_order"
                        + " FROM domain_event_entry e"
                        + " LEFT JOIN audit_chain c ON c.global_index = e.global_index"
                        + " LEFT JOIN audit_chain_head h ON h.workspace_id = COALESCE(e.workspace_id, :none)"
                        + " WHERE e.global_index = ANY(:positions) ORDER BY e.global_index",
                new MapSqlParameterSource("positions", positions.toArray(Long[]::new))
                        .addValue("none", AuditChain.NO_WORKSPACE),
                (rs, n) -> new Located(event(rs), rs.getString("workspace_id"), rs.getBoolean("chained"),
                        rs.getObject("head_position", Long.class), rs.getObject("head_order", Long.class),
                        rs.getString("head_hash"), rs.getLong("head_events"), rs.getLong("last_order")));
    }

    /** A chained event with its place in the chain. */
    public record Chained(StoredEvent event, AuditChainRepository.Link link) {
    }

    /**
     * The chained events in chain order after the chain position {@code afterOrder}, at most
     * {@code limit} of them (0 or less: all), page by page as {@link #forEachInStoreOrder}.
     *
     * @param workspace only this workspace's chain; null for every chain
     */
    public long forEachChained(String workspace, long afterOrder, long limit, Consumer<Chained> sink) {
        return forEachChained(workspace, afterOrder, Map.of(), limit, sink);
    }

    /**
     * As {@link #forEachChained(String, long, long, Consumer)}, and before {@code afterOrder} the
     * rows of each chain in {@code earlierStarts} after the chain position given for it: an export
     * that began after a position starts each chain at its signed checkpoint before that position.
     */
    public long forEachChained(String workspace, long afterOrder, Map<String, Long> earlierStarts, long limit,
                               Consumer<Chained> sink) {
        long handed = 0;
        long order = earlierStarts.values().stream().mapToLong(Long::longValue).min().orElse(afterOrder);
        order = Math.min(order, afterOrder);
        while (limit <= 0 || handed < limit) {
            int page = limit <= 0 ? PAGE : (int) Math.min(PAGE, limit - handed);
            MapSqlParameterSource p = new MapSqlParameterSource("after", order).addValue("page", page);
            String filter = "";
            if (workspace != null) {
                filter = " AND c.workspace_id = :workspace";
                p.addValue("workspace", workspace);
            }
            if (order < afterOrder) {
                filter += " AND (c.chain_order > :cut OR c.chain_order > (SELECT s.o FROM unnest(CAST(:startWs AS"
                        + " varchar[]), CAST(:startOrders AS bigint[])) s(w, o) WHERE s.w = c.workspace_id))";
                p.addValue("cut", afterOrder)
                        .addValue("startWs", earlierStarts.keySet().toArray(String[]::new))
                        .addValue("startOrders", earlierStarts.values().toArray(Long[]::new));
            }
            List<Chained> events = pageOf(SELECT_IN_CHAIN_ORDER.replace(FILTER, filter), p, rs -> new Chained(event(rs),
                    new AuditChainRepository.Link(rs.getLong("global_index"), rs.getLong("chain_order"),
                            rs.getString("chain"), rs.getString("prev_hash"), rs.getString("hash"))));
            for (Chained event : events) {
                sink.accept(event);
                order = event.link().chainOrder();
            }
            handed += events.size();
            if (events.size() < page) {
                break;
            }
        }
        return handed;
    }

    /** A chain row with the event stored at its position now; {@code event} is null when none is. */
    public record Link(AuditChainRepository.Link link, StoredEvent event) {
    }

    /**
     * Every chain row with a chain position in ({@code afterOrder}, {@code throughOrder}], in chain
     * order, each with the event the store holds at its position now (a row whose event was
     * removed comes with none), page by page as {@link #forEachInStoreOrder}.
     */
    public void forEachLink(long afterOrder, long throughOrder, Consumer<Link> sink) {
        long order = afterOrder;
        while (order < throughOrder) {
            MapSqlParameterSource p = new MapSqlParameterSource("after", order).addValue("through", throughOrder)
                    .addValue("page", PAGE);
            List<Link> links = pageOf(SELECT_LINKS, p, rs -> new Link(new AuditChainRepository.Link(
                    rs.getLong("chained_at"), rs.getLong("chain_order"), rs.getString("chain"),
                    rs.getString("prev_hash"), rs.getString("hash")),
                    rs.getObject("global_index") == null ? null : event(rs)));
            for (Link link : links) {
                sink.accept(link);
                order = link.link().chainOrder();
            }
            if (links.size() < PAGE) {
                return;
            }
        }
    }

    /**
     * Every publication event, stream after stream, each stream in sequence order: what the
     * verifier replays one publication at a time.
     *
     * @param workspace only this workspace's publications; null for the whole store
     */
    public void forEachPublicationStream(String workspace, Consumer<StoredEvent> sink) {
        String lastAggregate = "";
        long lastSequence = -1;
        while (true) {
            MapSqlParameterSource p = new MapSqlParameterSource("aggregate", lastAggregate)
                    .addValue("sequence", lastSequence).addValue("page", PAGE);
            String filter = "";
            if (workspace != null) {
                filter = OF_WORKSPACE;
                p.addValue("workspace", workspace);
            }
            List<StoredEvent> events = page(SELECT_IN_STREAM_ORDER.replace(FILTER, filter), p);
            for (StoredEvent event : events) {
                sink.accept(event);
                lastAggregate = event.aggregateId();
                lastSequence = event.sequence();
            }
            if (events.size() < PAGE) {
                return;
            }
        }
    }

    /** One page in a read-only transaction of its own, cut off by the database after the timeout. */
    private List<StoredEvent> page(String sql, MapSqlParameterSource parameters) {
        return pageOf(sql, parameters, this::event);
    }

    private interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> List<T> pageOf(String sql, MapSqlParameterSource parameters, Row<T> row) {
        try {
            return readOnly.execute(status -> {
                jdbc.getJdbcTemplate().execute("SET LOCAL statement_timeout = " + statementTimeoutMillis);
                return jdbc.query(sql, parameters, (rs, n) -> row.read(rs));
            });
        } catch (DataAccessException failure) {
            if (canceled(failure)) {
                throw new ReadTimedOut(failure);
            }
            throw failure;
        }
    }

    private static boolean canceled(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && QUERY_CANCELED.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /** A page query ran longer than {@code herald.audit.statement-timeout} and the database cancelled it. */
    public static final class ReadTimedOut extends QueryTimeoutException {
        ReadTimedOut(Throwable cause) {
            super("an audit read exceeded its statement timeout", cause);
        }
    }

    private StoredEvent event(ResultSet rs) throws SQLException {
        String payloadType = rs.getString("payload_type");
        return new StoredEvent(rs.getLong("global_index"), rs.getString("aggregate_identifier"),
                rs.getLong("sequence_number"), simpleName(payloadType), rs.getString("payload_revision"),
                rs.getString("time_stamp"), tree(rs.getBytes("payload")), tree(rs.getBytes("meta_data")));
    }

    /**
     * One event from the columns of its stored row, as {@link #streams} reads it, but for the
     * metadata, which is left unread ({@link com.fasterxml.jackson.databind.node.MissingNode}): for
     * the rules alone, which read the payload only.
     */
    StoredEvent forTheRules(long position, String aggregateId, long sequence, String payloadType, String revision,
                            String timestamp, byte[] payload) {
        return new StoredEvent(position, aggregateId, sequence, simpleName(payloadType), revision, timestamp,
                tree(payload), MissingNode.getInstance());
    }

    private JsonNode tree(byte[] stored) {
        if (stored == null || stored.length == 0) {
            return JsonNodeFactory.instance.objectNode();
        }
        try {
            return json.readTree(stored);
        } catch (IOException e) {
            throw new IllegalStateException("a stored event is not JSON", e);
        }
    }

    static String simpleName(String payloadType) {
        int dot = payloadType.lastIndexOf('.');
        String name = dot < 0 ? payloadType : payloadType.substring(dot + 1);
        return name.substring(name.lastIndexOf('$') + 1);
    }
}
