import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.Configuration;
import org.axonframework.config.DefaultConfigurer;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.tokenstore.jdbc.JdbcTokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.PostgresTokenTableFactory;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.PostgresEventTableFactory;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.TargetAggregateIdentifier;
import org.axonframework.serialization.json.JacksonSerializer;
import org.axonframework.spring.jdbc.SpringDataSourceConnectionProvider;
import org.axonframework.spring.messaging.unitofwork.SpringTransactionManager;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * The benchmark's yardstick: stock Axon Framework doing the least a publication needs, on the same
 * PostgreSQL in the same run as Herald. A minimal event-sourced aggregate takes three commands per
 * lifecycle (create, attempt, succeed) through the in-process command gateway, each in its own
 * transaction, from 32 client threads; the events go to Axon's {@code JdbcEventStorageEngine}
 * (Jackson, {@code bytea}, tables of its own next to Herald's); a pooled streaming projection with
 * batches of 100 writes one row per lifecycle. The clock runs from the first command until the
 * projection has recorded every lifecycle as done. No HTTP, no provider call, no cache, no
 * snapshots: what Axon costs on its own. Wired by hand as Axon's Spring Boot starter wires it (a
 * Spring transaction per unit of work, connections from Spring's transaction), without a context.
 *
 * <pre>
 * StockAxonReference JDBC_URL WARMUP_COUNT COUNT SEGMENTS  -> lifecycles=... lifecycles_per_s=...
 * </pre>
 */
public final class StockAxonReference {

    private static final int CLIENTS = 32;
    private static final String BODY = "Reference post " + "x".repeat(200);
    private static final AtomicLong DONE = new AtomicLong();

    public record Create(@TargetAggregateIdentifier String id, String body) {
    }

    public record Attempt(@TargetAggregateIdentifier String id) {
    }

    public record Succeed(@TargetAggregateIdentifier String id) {
    }

    public record Created(String id, String body) {
    }

    public record Attempted(String id, int attemptNo) {
    }

    public record Succeeded(String id, String postId) {
    }

    public static class Lifecycle {

        @AggregateIdentifier
        private String id;
        private int attempts;
        private boolean succeeded;

        public Lifecycle() {
        }

        @CommandHandler
        public Lifecycle(Create command) {
            apply(new Created(command.id(), command.body()));
        }

        @CommandHandler
        public void handle(Attempt command) {
            if (succeeded) {
                throw new IllegalStateException("already succeeded");
            }
            apply(new Attempted(id, attempts + 1));
        }

        @CommandHandler
        public void handle(Succeed command) {
            if (attempts == 0 || succeeded) {
                throw new IllegalStateException("no attempt in flight");
            }
            apply(new Succeeded(id, "post-" + id));
        }

        @EventSourcingHandler
        void on(Created event) {
            id = event.id();
        }

        @EventSourcingHandler
        void on(Attempted event) {
            attempts = event.attemptNo();
        }

        @EventSourcingHandler
        void on(Succeeded event) {
            succeeded = true;
        }
    }

    /** One row per lifecycle, written on the processor's unit-of-work connection with its token. */
    public static class Projection {

        private final ConnectionProvider connections;

        Projection(ConnectionProvider connections) {
            this.connections = connections;
        }

        @EventHandler
        void on(Created event) throws Exception {
            update("INSERT INTO ref_view (id, state, body) VALUES (?, 'CREATED', ?) ON CONFLICT (id) DO NOTHING",
                    event.id(), event.body());
        }

        @EventHandler
        void on(Attempted event) throws Exception {
            update("UPDATE ref_view SET state = 'ATTEMPTING' WHERE id = ?", event.id(), null);
        }

        @EventHandler
        void on(Succeeded event) throws Exception {
            update("UPDATE ref_view SET state = 'SUCCEEDED' WHERE id = ?", event.id(), null);
            CurrentUnitOfWork.get().afterCommit(u -> DONE.incrementAndGet());
        }

        private void update(String sql, String id, String body) throws Exception {
            Connection connection = connections.getConnection();
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setString(1, id);
                if (body != null) {
                    statement.setString(2, body);
                }
                statement.executeUpdate();
            } finally {
                connection.close(); // the transaction's connection: released to Spring, which closes it at commit
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String jdbc = args[0];
        int warmup = Integer.parseInt(args[1]);
        int count = Integer.parseInt(args[2]);
        int segments = Integer.parseInt(args[3]);

        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl(jdbc);
        pool.setMaximumPoolSize(CLIENTS + segments + 4);
        HikariDataSource dataSource = new HikariDataSource(pool);
        TransactionManager transactions = new SpringTransactionManager(new DataSourceTransactionManager(dataSource));
        ConnectionProvider connections = new SpringDataSourceConnectionProvider(dataSource);
        JacksonSerializer serializer = JacksonSerializer.builder().objectMapper(new ObjectMapper()).build();
        EventSchema eventSchema = EventSchema.builder()
                .eventTable("ref_domain_event_entry").snapshotTable("ref_snapshot_event_entry").build();
        JdbcEventStorageEngine engine = JdbcEventStorageEngine.builder()
                .connectionProvider(connections)
                .transactionManager(transactions)
                .schema(eventSchema)
                .eventSerializer(serializer)
                .snapshotSerializer(serializer)
                .build();
        JdbcTokenStore tokens = JdbcTokenStore.builder()
                .connectionProvider(connections)
                .schema(TokenSchema.builder().setTokenTable("ref_token_entry").build())
                .serializer(serializer)
                .build();
        createSchema(dataSource, engine, tokens);

        Configuration axon = DefaultConfigurer.defaultConfiguration(false)
                .configureSerializer(c -> serializer)
                .configureEventSerializer(c -> serializer)
                .configureMessageSerializer(c -> serializer)
                .configureTransactionManager(c -> transactions)
                .configureEmbeddedEventStore(c -> engine)
                .configureAggregate(Lifecycle.class)
                .eventProcessing(processing -> processing
                        .registerTokenStore(c -> tokens)
                        .registerPooledStreamingEventProcessor("reference-projection",
                                Configuration::eventStore,
                                (c, builder) -> builder.batchSize(100).initialSegmentCount(segments))
                        .assignHandlerTypesMatching("reference-projection", type -> type == Projection.class)
                        .registerEventHandler(c -> new Projection(connections)))
                .buildConfiguration();
        axon.start();
        try {
            CommandGateway gateway = axon.commandGateway();
            run(gateway, "warm-", warmup);
            double seconds = run(gateway, "ref-", count);
            System.out.printf("lifecycles=%d seconds=%.1f lifecycles_per_s=%.1f segments=%d%n", count, seconds,
                    count / seconds, segments);
        } finally {
            axon.shutdown();
            dataSource.close();
        }
        System.exit(0);
    }

    /** COUNT lifecycles from 32 clients; seconds from the first command until the projection has all. */
    private static double run(CommandGateway gateway, String prefix, int count) throws Exception {
        if (count == 0) {
            return 0;
        }
        long target = DONE.get() + count;
        AtomicInteger next = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        long started = System.nanoTime();
        for (int c = 0; c < CLIENTS; c++) {
            clients.submit(() -> {
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    String id = prefix + i;
                    gateway.sendAndWait(new Create(id, BODY));
                    gateway.sendAndWait(new Attempt(id));
                    gateway.sendAndWait(new Succeed(id));
                }
                return null;
            });
        }
        clients.shutdown();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
        while (DONE.get() < target && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        if (DONE.get() < target) {
            throw new IllegalStateException("the projection did not catch up: " + (target - DONE.get()) + " missing");
        }
        return (System.nanoTime() - started) / 1e9;
    }

    private static void createSchema(HikariDataSource dataSource, JdbcEventStorageEngine engine,
                                     JdbcTokenStore tokens) throws Exception {
        engine.createSchema(PostgresEventTableFactory.INSTANCE);
        tokens.createSchema(PostgresTokenTableFactory.INSTANCE);
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS ref_view (id VARCHAR(64) PRIMARY KEY,"
                    + " state VARCHAR(16) NOT NULL, body TEXT)");
        }
    }
}
