package io.herald.query.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * Reads Axon's {@code domain_event_entry} for auditors. Payloads and metadata are the Jackson JSON
 * the store was written with, returned as JSON trees rather than Java objects, so an auditor sees
 * exactly what is stored, whichever revision it is.
 *
 * <p>Long reads go in keyset pages of {@link #PAGE} rows on an index (global index, or aggregate
 * and sequence), so memory stays flat however large the store is, and no read holds a transaction
 * or cursor open while the caller writes to a slow client.
 */
@Repository
public class EventStoreReader {

    static final int PAGE = 500;

    private static final String COLUMNS = """
            global_index, aggregate_identifier, sequence_number, payload_type, payload_revision, time_stamp,
            payload, meta_data""";
    /** Every Herald event names its workspace; this reads it from the stored JSON. */
    private static final String WORKSPACE_OF_PAYLOAD = "(convert_from(payload, 'UTF8')::jsonb ->> 'workspaceId')";
    private static final String PUBLICATION_EVENTS = "payload_type LIKE 'io.herald.contracts.publication.%'";

    private final NamedParameterJdbcTemplate jdbc;
    private final ObjectMapper json;

    public EventStoreReader(NamedParameterJdbcTemplate jdbc, ObjectMapper objectMapper) {
        this.jdbc = jdbc;
        this.json = objectMapper;
    }

    /** One aggregate's stream in sequence order; empty when there is none. */
    public List<StoredEvent> stream(String aggregateId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM domain_event_entry WHERE aggregate_identifier = :id"
                        + " ORDER BY sequence_number",
                new MapSqlParameterSource("id", aggregateId), (rs, n) -> event(rs));
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
                filter = " AND " + WORKSPACE_OF_PAYLOAD + " = :workspace";
                p.addValue("workspace", workspace);
            }
            List<StoredEvent> events = jdbc.query("SELECT " + COLUMNS + " FROM domain_event_entry"
                    + " WHERE global_index > :after" + filter + " ORDER BY global_index LIMIT :page", p,
                    (rs, n) -> event(rs));
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
                filter = " AND " + WORKSPACE_OF_PAYLOAD + " = :workspace";
                p.addValue("workspace", workspace);
            }
            List<StoredEvent> events = jdbc.query("SELECT " + COLUMNS + " FROM domain_event_entry"
                    + " WHERE (aggregate_identifier, sequence_number) > (:aggregate, :sequence) AND "
                    + PUBLICATION_EVENTS + filter
                    + " ORDER BY aggregate_identifier, sequence_number LIMIT :page", p, (rs, n) -> event(rs));
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

    private StoredEvent event(ResultSet rs) throws SQLException {
        String payloadType = rs.getString("payload_type");
        return new StoredEvent(rs.getLong("global_index"), rs.getString("aggregate_identifier"),
                rs.getLong("sequence_number"), simpleName(payloadType), rs.getString("payload_revision"),
                rs.getString("time_stamp"), tree(rs.getBytes("payload")), tree(rs.getBytes("meta_data")));
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
