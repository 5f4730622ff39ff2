package io.herald.deploy.axon;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.testsupport.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The store's events as its own reader and as a processor catching up read them from a real
 * store: every event once and in order, and how many queries that took.
 */
class HeraldJdbcStorageEngineDatabaseTest {

    private static final Path STORE = Path.of("src/main/resources/db/migration/deploy/V2026_11_29_01__axon_store.sql");

    private final DataSource dataSource = new DriverManagerDataSource(TestDatabase.shared().freshSibling().jdbcUrl());
    private final JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    /** Connections the engine took: one per query it ran. */
    private final AtomicInteger queries = new AtomicInteger();
    private HeraldJdbcStorageEngine engine;

    @BeforeEach
    void store() throws IOException {
        jdbc.execute(Files.readString(STORE));
        engine = engine(Duration.ZERO);
    }

    private HeraldJdbcStorageEngine engine(Duration headReadSpacing) {
        JacksonSerializer serializer = JacksonSerializer.defaultSerializer();
        return new HeraldJdbcStorageEngine(JdbcEventStorageEngine.builder()
                .snapshotSerializer(serializer)
                .eventSerializer(serializer)
                .connectionProvider(() -> {
                    queries.incrementAndGet();
                    return dataSource.getConnection();
                })
                .transactionManager(NoTransactionManager.INSTANCE)
                .schema(new AxonPersistenceConfiguration().eventSchema())
                .batchSize(100), headReadSpacing);
    }

    @Test
    void theStoresReaderGetsEveryEventWithoutAnEmptyReadAtTheEndOfEachStream() {
        append("pub-a", 250);
        queries.set(0);

        assertThat(payloads(readAsTheStoresReaderDoes())).containsExactlyElementsOf(
                IntStream.range(0, 250).mapToObj(i -> "pub-a/" + i).toList());
        // streams of 99 (a batch from no token ends at index 99), of 100 and 51, and the empty read
        // with its look past a gap that tells the reader to wait: Axon's streams took 7 queries
        assertThat(queries.get()).isEqualTo(5);
    }

    @Test
    void theStoresReaderGetsTheEventsPastAGapWiderThanABatch() {
        append("pub-a", 1);
        jdbc.execute("SELECT setval('domain_event_entry_global_index_seq', 1000)");
        append("pub-b", 2);

        assertThat(payloads(readAsTheStoresReaderDoes())).containsExactly("pub-a/0", "pub-b/0", "pub-b/1");
    }

    @Test
    void aProcessorCatchingUpOnItsOwnStillReadsUntilAnEmptyBatch() {
        append("pub-a", 150);
        jdbc.execute("SELECT setval('domain_event_entry_global_index_seq', 1000)");
        append("pub-b", 2);

        assertThat(payloads(read(engine, null, false))).hasSize(152).endsWith("pub-a/149", "pub-b/0", "pub-b/1");
    }

    @Test
    void theStoresReaderReadsNoSoonerThanItsSpacingAfterItsLastRead() {
        append("pub-a", 250);
        HeraldJdbcStorageEngine spaced = engine(Duration.ofMillis(300));

        long started = System.nanoTime();
        List<TrackedEventMessage<?>> first = read(spaced, null, true);
        assertThat(first).hasSize(99);
        assertThat(read(spaced, first.get(98).trackingToken(), true))
                .as("a full batch and the one after it, in one stream").hasSize(151);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    @Test
    void eventsReadForTheProcessorsCarryTheInstantsTheyWereStoredWith() {
        List<Instant> stored = List.of(Instant.parse("2026-12-07T01:45:50Z"), Instant.parse("2026-12-07T01:45:50.120Z"),
                Instant.parse("2026-12-07T01:45:50.123456789Z"), Instant.parse("1999-12-31T23:59:59.999Z"));
        engine.appendEvents(IntStream.range(0, stored.size())
                .mapToObj(i -> new GenericDomainEventMessage<>("Publication", "pub-a", i, "pub-a/" + i, Map.of(),
                        "event-" + i, stored.get(i)))
                .toList());
        // a form Herald does not write (an offset) is Axon's to read
        jdbc.update("UPDATE domain_event_entry SET time_stamp = '2026-12-07T02:45:50.5+01:00' WHERE sequence_number = 3");
        // Axon stores milliseconds
        List<Instant> expected = List.of(stored.get(0), stored.get(1), Instant.parse("2026-12-07T01:45:50.123Z"),
                Instant.parse("2026-12-07T01:45:50.500Z"));

        assertThat(read(engine, null, true)).extracting(TrackedEventMessage::getTimestamp)
                .containsExactlyElementsOf(expected);
        assertThat(read(engine, null, false)).extracting(TrackedEventMessage::getTimestamp)
                .containsExactlyElementsOf(expected);
    }

    private void append(String aggregate, int events) {
        engine.appendEvents(IntStream.range(0, events)
                .mapToObj(i -> new GenericDomainEventMessage<>("Publication", aggregate, i, aggregate + "/" + i))
                .toList());
    }

    /** As Axon's event store's reader does: streams from the last event read until one is empty. */
    private List<TrackedEventMessage<?>> readAsTheStoresReaderDoes() {
        List<TrackedEventMessage<?>> read = new ArrayList<>();
        TrackingToken token = null;
        while (true) {
            List<TrackedEventMessage<?>> stream = read(engine, token, true);
            if (stream.isEmpty()) {
                return read;
            }
            read.addAll(stream);
            token = stream.get(stream.size() - 1).trackingToken();
        }
    }

    /** One stream of the store's events, read to its end. */
    private static List<TrackedEventMessage<?>> read(HeraldJdbcStorageEngine from, TrackingToken token,
                                                     boolean mayBlock) {
        try (var events = from.readEvents(token, mayBlock)) {
            return events.<TrackedEventMessage<?>>map(event -> event).toList();
        }
    }

    private static List<Object> payloads(List<TrackedEventMessage<?>> events) {
        return events.stream().<Object>map(TrackedEventMessage::getPayload).toList();
    }
}
