package io.herald.deploy.axon;

import org.springframework.boot.context.properties.EnableConfigurationProperties;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.module.paramnames.ParameterNamesModule;
import java.time.Instant;
import javax.sql.DataSource;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.platform.commands.CommandTargets;
import org.axonframework.common.caching.Cache;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.jdbc.PersistenceExceptionResolver;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.EventBusSpanFactory;
import org.axonframework.eventhandling.deadletter.jdbc.DeadLetterSchema;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jpa.SQLStateResolver;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.serialization.ChainingConverter;
import org.axonframework.serialization.RevisionResolver;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.axonframework.spring.jdbc.SpringDataSourceConnectionProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.http.converter.json.Jackson2ObjectMapperBuilder;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Axon's storage on PostgreSQL through JDBC: snake_case tables with bytea payloads (see the
 * {@code db/migration/deploy} scripts), Jackson for every serializer, and one connection release
 * per borrow.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AggregateCacheProperties.class)
public class AxonPersistenceConfiguration {

    /**
     * Plain Spring-managed connections. Axon's default wraps this provider in a unit-of-work-aware
     * wrapper whose clean-up releases the connection a second time after Spring's transaction
     * manager already returned it to the pool at commit; under load two threads then shared one
     * pooled connection's statement list. Inside a Spring transaction every borrow here is the
     * transaction's own connection, released once by Spring.
     */
    @Bean
    ConnectionProvider connectionProvider(DataSource dataSource) {
        return new SpringDataSourceConnectionProvider(dataSource);
    }

    /** A duplicate (aggregate, sequence) key means a concurrent append: a clean conflict, not a driver error. */
    @Bean
    PersistenceExceptionResolver persistenceExceptionResolver() {
        return new SQLStateResolver("23505");
    }

    @Bean
    EventSchema eventSchema() {
        return EventSchema.builder()
                .eventTable("domain_event_entry")
                .snapshotTable("snapshot_event_entry")
                .globalIndexColumn("global_index")
                .timestampColumn("time_stamp")
                .eventIdentifierColumn("event_identifier")
                .aggregateIdentifierColumn("aggregate_identifier")
                .sequenceNumberColumn("sequence_number")
                .typeColumn("type")
                .payloadTypeColumn("payload_type")
                .payloadRevisionColumn("payload_revision")
                .payloadColumn("payload")
                .metaDataColumn("meta_data")
                .build();
    }

    /** Axon's JDBC event store as its Spring Boot set-up builds it, reading as {@link HeraldJdbcStorageEngine} says. */
    @Bean
    EventStorageEngine eventStorageEngine(Serializer defaultSerializer,
                                          PersistenceExceptionResolver persistenceExceptionResolver,
                                          @Qualifier("eventSerializer") Serializer eventSerializer,
                                          org.axonframework.config.Configuration configuration,
                                          ConnectionProvider connectionProvider,
                                          TransactionManager transactionManager, EventSchema eventSchema,
                                          ProcessingProperties processing) {
        return new HeraldJdbcStorageEngine(JdbcEventStorageEngine.builder()
                .snapshotSerializer(defaultSerializer)
                .upcasterChain(configuration.upcasterChain())
                .persistenceExceptionResolver(persistenceExceptionResolver)
                .eventSerializer(eventSerializer)
                .snapshotFilter(configuration.snapshotFilter())
                .connectionProvider(connectionProvider)
                .transactionManager(transactionManager)
                .schema(eventSchema), processing.headReadSpacing());
    }

    /**
     * Axon's event store as its Spring Boot set-up builds it, keeping {@code
     * herald.processing.cached-events} recent events in memory instead of 10,000. Each cached event
     * holds its own tracking token, and each token its own set of the store's gaps (dozens while
     * batches commit side by side): 10,000 of them lived for seconds under load, long enough to
     * reach the old generation and die there, and the full collections they caused paused
     * requests for a quarter of a second every few seconds.
     */
    @Bean
    EmbeddedEventStore eventStore(EventStorageEngine storageEngine,
                                  org.axonframework.config.Configuration configuration,
                                  ProcessingProperties processing) {
        return EmbeddedEventStore.builder()
                .storageEngine(storageEngine)
                .messageMonitor(configuration.messageMonitor(EventStore.class, "eventStore"))
                .spanFactory(configuration.getComponent(EventBusSpanFactory.class))
                .cachedEvents(processing.cachedEvents())
                .build();
    }

    /**
     * The publication aggregates this node used last, each handed out only while the store holds
     * no newer event for it ({@link StoreCheckedAggregateCache}); the {@code Publication}
     * aggregate names this bean. {@code herald.command.aggregate-cache-size} entries at most (about
     * 2 KB each with a short post: the default 20,000 hold about 36 MB of the heap), dropped after
     * {@code herald.command.aggregate-cache-idle} unused.
     */
    @Bean
    Cache publicationCache(EventStorageEngine eventStorageEngine, DataSource dataSource, EventSchema eventSchema,
                           AggregateCacheProperties properties) {
        return new StoreCheckedAggregateCache(eventStorageEngine, new JdbcTemplate(dataSource),
                eventSchema.domainEventTable(), properties.aggregateCacheSize(), properties.aggregateCacheIdle());
    }

    /**
     * Which aggregate each command goes to: Axon's target annotations, each command class read once
     * ({@link CommandTargets}). Every aggregate's command handlers take Axon's component of this type.
     */
    @Bean
    CommandTargetResolver commandTargetResolver() {
        return new CommandTargets();
    }

    @Bean
    TokenSchema tokenSchema() {
        return TokenSchema.builder()
                .setTokenTable("token_entry")
                .setProcessorNameColumn("processor_name")
                .setSegmentColumn("segment")
                .setTokenColumn("token")
                .setTokenTypeColumn("token_type")
                .setTimestampColumn("timestamp")
                .setOwnerColumn("owner")
                .build();
    }

    @Bean
    DeadLetterSchema deadLetterSchema() {
        return DeadLetterSchema.builder()
                .deadLetterTable("dead_letter_entry")
                .deadLetterIdentifierColumn("dead_letter_id")
                .processingGroupColumn("processing_group")
                .sequenceIdentifierColumn("sequence_identifier")
                .sequenceIndexColumn("sequence_index")
                .messageTypeColumn("message_type")
                .eventIdentifierColumn("event_identifier")
                .timestampColumn("time_stamp")
                .payloadTypeColumn("payload_type")
                .payloadRevisionColumn("payload_revision")
                .payloadColumn("payload")
                .metaDataColumn("meta_data")
                .aggregateTypeColumn("aggregate_type")
                .aggregateIdentifierColumn("aggregate_identifier")
                .sequenceNumberColumn("sequence_number")
                .tokenTypeColumn("token_type")
                .tokenColumn("token")
                .enqueuedAtColumn("enqueued_at")
                .lastTouchedColumn("last_touched")
                .processingStartedColumn("processing_started")
                .causeTypeColumn("cause_type")
                .causeMessageColumn("cause_message")
                .diagnosticsColumn("diagnostics")
                .build();
    }

    /**
     * The mapper for stored messages and tokens: lenient about unknown fields (old events
     * must stay readable), field-based so records and tokens serialize without getters.
     */
    @Bean("defaultAxonObjectMapper")
    ObjectMapper defaultAxonObjectMapper(ChannelPlugins channelPlugins) {
        return JsonMapper.builder()
                // which settings record a channel type's tag names, for the connection events
                .addModule(channelPlugins.jacksonModule())
                .addModule(new JavaTimeModule())
                // after the module of java.time, so that it reads instants first
                .addModule(new SimpleModule("herald-stored-instants")
                        .addDeserializer(Instant.class, new StoredInstantDeserializer()))
                .addModule(new ParameterNamesModule())
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
                .build();
    }

    /**
     * The one serializer of messages, events and everything else Axon stores, as Axon's own
     * configuration builds it from {@code axon.serializer.*: jackson} (the revision resolver, the
     * mapper above, a converter on the application's class loader), with each type name resolved
     * once ({@link TypeCachingJacksonSerializer}). Axon's message and event serializers are this one.
     */
    @Bean
    @Primary
    Serializer serializer(RevisionResolver revisionResolver,
                          @Qualifier("defaultAxonObjectMapper") ObjectMapper defaultAxonObjectMapper,
                          ApplicationContext context) {
        return new TypeCachingJacksonSerializer(JacksonSerializer.builder()
                .revisionResolver(revisionResolver)
                .converter(new ChainingConverter(context.getClassLoader()))
                .objectMapper(defaultAxonObjectMapper));
    }

    /** The mapper for HTTP and everything else: Spring Boot's, configured by {@code spring.jackson.*}. */
    @Bean
    @Primary
    ObjectMapper objectMapper(Jackson2ObjectMapperBuilder builder) {
        return builder.build();
    }
}
