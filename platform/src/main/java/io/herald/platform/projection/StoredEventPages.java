package io.herald.platform.projection;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import org.axonframework.eventhandling.EventHandlerInvoker;
import org.axonframework.eventhandling.EventUtils;
import org.axonframework.eventhandling.GenericDomainEventEntry;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.TrackedDomainEventData;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedType;
import org.axonframework.serialization.UnknownSerializedType;
import org.axonframework.serialization.upcasting.event.EventUpcaster;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The rebuild's reading side: the stored events a projection may handle, aggregate after
 * aggregate and each aggregate's in sequence order, upcast and deserialized, a page at a time.
 */
final class StoredEventPages {

    private static final String PAGE = """
            SELECT global_index, type, aggregate_identifier, sequence_number, event_identifier, time_stamp,
                payload_type, payload_revision, payload, meta_data
            FROM domain_event_entry
            WHERE (aggregate_identifier, sequence_number) > (:aggregate, :sequence) AND payload_type IN (:types)
            ORDER BY aggregate_identifier, sequence_number LIMIT :page""";

    private final NamedParameterJdbcTemplate jdbc;
    private final Serializer serializer;
    private final EventUpcaster upcasters;
    private final boolean readEveryType;
    private final int pageSize;

    /**
     * @param readEveryType whether an upcaster may turn a stored type into another one, so that
     *                      every stored type must be read
     */
    StoredEventPages(NamedParameterJdbcTemplate jdbc, Serializer serializer, EventUpcaster upcasters,
                     boolean readEveryType, int pageSize) {
        this.jdbc = jdbc;
        this.serializer = serializer;
        this.upcasters = upcasters;
        this.readEveryType = readEveryType;
        this.pageSize = pageSize;
    }

    /**
     * The stored payload types the projection may handle, so the others are never read: a type
     * no class on this node matches, or any type at all once an upcaster may change a type (and so
     * turn a stored type into one the projection handles), is read and offered to it.
     */
    List<String> storedTypes(EventHandlerInvoker handlers) {
        List<String> types = new ArrayList<>();
        String sql = "SELECT DISTINCT payload_type, payload_revision FROM domain_event_entry";
        jdbc.query(sql, (RowCallbackHandler) rs -> {
            String type = rs.getString(1);
            Class<?> payload = serializer.classForType(new SimpleSerializedType(type, rs.getString(2)));
            if ((readEveryType || UnknownSerializedType.class.equals(payload) || handlers.canHandleType(payload))
                    && !types.contains(type)) {
                types.add(type);
            }
        });
        return types;
    }

    /** Puts every page of events in {@code pages}, then an empty page; payloads deserialized already. */
    void readEveryStream(List<String> types, BlockingQueue<List<TrackedEventMessage<?>>> pages)
            throws InterruptedException {
        String aggregate = "";
        long sequence = -1;
        while (true) {
            MapSqlParameterSource after = new MapSqlParameterSource("aggregate", aggregate)
                    .addValue("sequence", sequence).addValue("types", types).addValue("page", pageSize);
            List<TrackedDomainEventData<byte[]>> page = jdbc.query(PAGE, after,
                    (rs, n) -> new TrackedDomainEventData<>(new GlobalSequenceTrackingToken(rs.getLong(1)),
                            new GenericDomainEventEntry<>(rs.getString(2), rs.getString(3), rs.getLong(4),
                                    rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8),
                                    rs.getBytes(9), rs.getBytes(10))));
            if (!page.isEmpty()) {
                TrackedDomainEventData<byte[]> last = page.get(page.size() - 1);
                aggregate = last.getAggregateIdentifier();
                sequence = last.getSequenceNumber();
                List<TrackedEventMessage<?>> messages =
                        EventUtils.upcastAndDeserializeTrackedEvents(page.stream(), serializer, upcasters).toList();
                // payloads only: no projection reads an event's metadata, which stays serialized unless one
                // asks (deserializing it here was about a tenth of a rebuild's CPU samples)
                messages.forEach(TrackedEventMessage::getPayload);
                pages.put(messages);
            }
            // a short page is the last of what the store held: asking again would cost another pass over
            // the table for a projection of rare types (found only by reading every row), and what is
            // appended meanwhile the processor handles after the rebuild, as it does what the pages passed
            if (page.size() < pageSize) {
                pages.put(List.of());
                return;
            }
        }
    }
}
