package io.herald.deploy.axon;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.axonframework.eventhandling.DomainEventData;
import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.TrackedDomainEventData;
import org.axonframework.eventhandling.TrackedEventData;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;

/**
 * Axon's JDBC event store as its Spring Boot set-up builds it, with four changes to how it reads.
 *
 * <ul>
 *   <li>Loading an aggregate does not look for a snapshot: Herald takes none, and the lookup was one
 *       query per command. Should snapshots ever be configured, this override goes.</li>
 *   <li>The stream the event store's own reader asks for (the one that feeds the processors at
 *       the head of the store, and the only one opened with {@code mayBlock}) ends after the first
 *       batch that is not full, where Axon's ends only after an empty one. That reader reads again
 *       at once whenever its last stream held events, so the empty read at the end of each stream
 *       was a transaction of its own (with a second query, for events past a gap) that told it
 *       nothing. A batch can also be short because of a gap in the global index; the events after
 *       it come with the reader's next read.</li>
 *   <li>That reader's reads are at least {@code herald.processing.head-read-spacing} apart. While
 *       events keep coming it read again the moment its last read was done, one read (and one
 *       transaction) for every two or three commits; now one read takes what the commits of the
 *       last few milliseconds wrote. A read that comes later than that after the last is not held
 *       back, so on a quiet store an event waits for nothing.</li>
 *   <li>An event read for a processor carries its timestamp read once, digit by digit
 *       ({@link StoredInstantDeserializer#utc}). Axon keeps the stored text and parses it through
 *       {@code DateTimeFormatter} for every message it builds from the event (each processor builds its
 *       own): in a flight recording of intake at 250 requests/s that was about a tenth of all Herald
 *       allocated. Text in any other form is left to Axon.</li>
 * </ul>
 *
 * <p>Every other stream (a processor catching up on its own, a replay) ends only on an empty read
 * and is never held back, as in Axon: those readers take the end of a stream for the head of the
 * store. Their events carry their timestamps read once too.
 */
class HeraldJdbcStorageEngine extends JdbcEventStorageEngine {

    private final long spacingNanos;
    /** When the reader's first read of its last stream was done. */
    private volatile long lastHeadRead = System.nanoTime() - TimeUnit.DAYS.toNanos(1);

    HeraldJdbcStorageEngine(Builder builder, Duration headReadSpacing) {
        super(builder);
        this.spacingNanos = headReadSpacing.toNanos();
    }

    @Override
    protected Stream<? extends DomainEventData<?>> readSnapshotData(String aggregateIdentifier) {
        return Stream.empty();
    }

    @Override
    protected Stream<? extends TrackedEventData<?>> readEventData(TrackingToken trackingToken, boolean mayBlock) {
        if (!mayBlock) {
            return super.readEventData(trackingToken, false);
        }
        // a park may end early; an interrupt (the store closing) ends the wait
        long due = lastHeadRead + spacingNanos;
        long wait;
        while ((wait = due - System.nanoTime()) > 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(wait);
        }
        try {
            return untilShortBatch(trackingToken);
        } finally {
            lastHeadRead = System.nanoTime();
        }
    }

    @Override
    protected TrackedEventData<?> getTrackedEventData(ResultSet resultSet, GapAwareTrackingToken previousToken)
            throws SQLException {
        TrackedEventData<?> read = super.getTrackedEventData(resultSet, previousToken);
        Instant timestamp = readTimeStamp(resultSet, schema().timestampColumn()) instanceof String text
                ? StoredInstantDeserializer.utc(text) : null;
        return timestamp != null && read instanceof TrackedDomainEventData<?> event ? storedAt(event, timestamp) : read;
    }

    private static <T> TrackedDomainEventData<T> storedAt(TrackedDomainEventData<T> read, Instant timestamp) {
        return new TrackedDomainEventData<>(read.trackingToken(), read) {
            @Override
            public Instant getTimestamp() {
                return timestamp;
            }
        };
    }

    /** The batches from the token on, up to and with the first that is not full. */
    private Stream<? extends TrackedEventData<?>> untilShortBatch(TrackingToken trackingToken) {
        int full = batchSize();
        return Stream.<List<? extends TrackedEventData<?>>>iterate(fetchTrackedEvents(trackingToken, full),
                        batch -> !batch.isEmpty(),
                        batch -> batch.size() < full ? List.of()
                                : fetchTrackedEvents(batch.get(batch.size() - 1).trackingToken(), full))
                .flatMap(List::stream);
    }
}
