package io.herald.platform.projection;

import io.herald.platform.database.BinaryCursor;
import io.herald.platform.database.LongStatements;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The rebuild's reading side: the stored events a projection may handle, in store order, upcast and
 * deserialized, a page at a time.
 *
 * <p>They are read by one query, in one snapshot of the store, fetched a page at a time through a
 * cursor: each aggregate's events arrive in sequence order (event n + 1 of an aggregate is appended
 * only once event n is stored, so its global index is higher), and what the snapshot holds of an
 * aggregate is a beginning of its stream with no event missing, since an event stored after the
 * snapshot began is not in it, nor is any later event of the same aggregate. Pages asked for one by
 * one, each in a snapshot of its own, could skip an event whose transaction was still open while
 * passing its index and then read the aggregate's next event.
 *
 * <p>Store order reads the table's pages in the order they were written: on a store of 300,000
 * events, a page of 2,000 events in aggregate order through the stream key touched about 2,000
 * table pages, in store order about 300.
 */
final class StoredEventPages {

    private static final String EVERY_EVENT = """
            SELECT global_index, type, aggregate_identifier, sequence_number, event_identifier, time_stamp,
                payload_type, payload_revision, payload, meta_data
            FROM domain_event_entry
            WHERE payload_type IN (:types)
            ORDER BY global_index""";
    private static final String EVERY_ROW = """
            SELECT global_index, type, aggregate_identifier, sequence_number, time_stamp, payload_type,
                payload_revision, payload
            FROM domain_event_entry
            WHERE type IN (:types)
            ORDER BY global_index""";

    private final NamedParameterJdbcTemplate jdbc;
    /** Fetches {@code pageSize} rows at a time, in binary. */
    private final NamedParameterJdbcTemplate cursor;
    /** The reading's own transaction (a cursor lives in one), apart from the rebuild's. */
    private final TransactionTemplate reading;
    private final Serializer serializer;
    private final EventUpcaster upcasters;
    private final boolean readEveryType;
    private final int pageSize;

    /**
     * @param readEveryType whether an upcaster may turn a stored type into another one, so that
     *                      every stored type must be read
     */
    StoredEventPages(NamedParameterJdbcTemplate jdbc, PlatformTransactionManager transactions, Serializer serializer,
                     EventUpcaster upcasters, boolean readEveryType, int pageSize) {
        this.jdbc = jdbc;
        this.cursor = new NamedParameterJdbcTemplate(
                BinaryCursor.template(jdbc.getJdbcTemplate().getDataSource(), pageSize));
        this.reading = new TransactionTemplate(transactions);
        this.reading.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.reading.setReadOnly(true);
        this.serializer = serializer;
        this.upcasters = upcasters;
        this.readEveryType = readEveryType;
        this.pageSize = pageSize;
    }

    /** The stored payload types a projection may handle, and how many stored events they have. */
    record Types(List<String> names, long events) {
    }

    /**
     * The stored payload types the projection may handle, so the others are never read: a type
     * no class on this node matches, or any type at all once an upcaster may change a type (and so
     * turn a stored type into one the projection handles), is read and offered to it. Counted in
     * the same pass, for the rebuild's progress.
     */
    Types storedTypes(EventHandlerInvoker handlers) {
        List<String> types = new ArrayList<>();
        long[] events = {0};
        String sql = "SELECT payload_type, payload_revision, count(*) FROM domain_event_entry GROUP BY 1, 2";
        jdbc.getJdbcTemplate().query(sql, (RowCallbackHandler) rs -> {
            String type = rs.getString(1);
            Class<?> payload = serializer.classForType(new SimpleSerializedType(type, rs.getString(2)));
            if (readEveryType || UnknownSerializedType.class.equals(payload) || handlers.canHandleType(payload)) {
                events[0] += rs.getLong(3);
                if (!types.contains(type)) {
                    types.add(type);
                }
            }
        });
        return new Types(types, events[0]);
    }

    /** How many stored events aggregates of these types have, for a {@link StoredEventFold}'s progress. */
    long storedEventsOf(Set<String> aggregateTypes) {
        Long count = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE type IN (:types)",
                new MapSqlParameterSource("types", aggregateTypes), Long.class);
        return count == null ? 0 : count;
    }

    /**
     * Puts every stored event of aggregates of these types in {@code pages}, as stored (neither
     * upcast nor deserialized), a page at a time, then an empty page; in one snapshot, as
     * {@link #readEveryStream}.
     */
    void readEveryRow(Set<String> aggregateTypes, BlockingQueue<List<StoredEventRow>> pages)
            throws InterruptedException {
        try {
            reading.executeWithoutResult(status -> {
                LongStatements.liftTimeouts(cursor.getJdbcTemplate());
                List<StoredEventRow> page = new ArrayList<>(pageSize);
                cursor.query(EVERY_ROW, new MapSqlParameterSource("types", aggregateTypes), (RowCallbackHandler) rs -> {
                    page.add(new StoredEventRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4),
                            rs.getString(5), rs.getString(6), rs.getString(7), rs.getBytes(8)));
                    if (page.size() == pageSize) {
                        put(pages, List.copyOf(page));
                        page.clear();
                    }
                });
                if (!page.isEmpty()) {
                    put(pages, List.copyOf(page));
                }
            });
        } catch (Interrupted e) {
            throw e.cause;
        }
        pages.put(List.of());
    }

    /** Puts every page of events in {@code pages}, then an empty page; payloads deserialized already. */
    void readEveryStream(List<String> types, BlockingQueue<List<TrackedEventMessage<?>>> pages)
            throws InterruptedException {
        try {
            reading.executeWithoutResult(status -> {
                // one statement for the whole store: no statement timeout of ordinary work applies
                LongStatements.liftTimeouts(cursor.getJdbcTemplate());
                List<TrackedDomainEventData<byte[]>> page = new ArrayList<>(pageSize);
                cursor.query(EVERY_EVENT, new MapSqlParameterSource("types", types), (RowCallbackHandler) rs -> {
                    page.add(new TrackedDomainEventData<>(new GlobalSequenceTrackingToken(rs.getLong(1)),
                            new GenericDomainEventEntry<>(rs.getString(2), rs.getString(3), rs.getLong(4),
                                    rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8),
                                    rs.getBytes(9), rs.getBytes(10))));
                    if (page.size() == pageSize) {
                        put(pages, deserialize(page));
                        page.clear();
                    }
                });
                if (!page.isEmpty()) {
                    put(pages, deserialize(page));
                }
            });
        } catch (Interrupted e) {
            throw e.cause;
        }
        // what is appended meanwhile the processor handles after the rebuild, as it does what the snapshot missed
        pages.put(List.of());
    }

    private List<TrackedEventMessage<?>> deserialize(List<TrackedDomainEventData<byte[]>> page) {
        List<TrackedEventMessage<?>> messages =
                EventUtils.upcastAndDeserializeTrackedEvents(page.stream(), serializer, upcasters).toList();
        // payloads only: no projection reads an event's metadata, which stays serialized unless one
        // asks (deserializing it here was about a tenth of a rebuild's CPU samples)
        messages.forEach(TrackedEventMessage::getPayload);
        return messages;
    }

    private static <T> void put(BlockingQueue<List<T>> pages, List<T> page) {
        try {
            pages.put(page);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Interrupted(e);
        }
    }

    /** Carries the reader's interruption out of the row callback, which may not throw it. */
    private static final class Interrupted extends RuntimeException {
        private final InterruptedException cause;

        Interrupted(InterruptedException cause) {
            super(cause);
            this.cause = cause;
        }
    }
}
