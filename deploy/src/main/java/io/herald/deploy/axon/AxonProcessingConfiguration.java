package io.herald.deploy.axon;

import org.springframework.boot.context.properties.EnableConfigurationProperties;

import io.herald.platform.threads.BackgroundThreads;

import io.herald.platform.logging.MdcScope;
import io.herald.platform.tracing.Traces;

import io.herald.command.publishing.DispatcherErrorHandler;
import io.herald.command.publishing.PublicationDispatcher;
import io.herald.command.publishing.TimerRows;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import io.herald.query.webhook.WebhookSubscriptionProjection;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.eventhandling.deadletter.jdbc.DeadLetterSchema;
import org.axonframework.messaging.MessageDispatchInterceptor;
import org.axonframework.messaging.correlation.CorrelationDataProvider;
import org.axonframework.messaging.correlation.MessageOriginProvider;
import org.axonframework.messaging.correlation.SimpleCorrelationDataProvider;
import org.slf4j.MDC;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * How events are processed: pooled streaming processors (segments split across threads and
 * nodes through the token store), and an error handler that propagates, so a failing handler
 * rolls back and is retried instead of Axon's default of logging and skipping the event.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ProcessingProperties.class)
public class AxonProcessingConfiguration {

    /** MDC keys the HTTP layer sets; copied into every command dispatched from a request. */
    public static final String CORRELATION_ID = MdcScope.CORRELATION_ID;
    public static final String ACTOR = MdcScope.ACTOR;

    /**
     * Every processor handles up to {@code herald.processing.batch-size} events of a segment in one
     * transaction, so its token is written once per batch rather than once per event. A failing
     * event rolls the whole batch back and it is processed again; nothing runs after a rollback.
     * A new token store splits each processor into {@code herald.processing.initial-segments}
     * segments (2: two nodes hold one each). Each segment costs Axon's coordinator work per event:
     * with 2 segments instead of 4 a publication took about a quarter less CPU. An existing store
     * keeps its segments (Axon's split and merge change them). Each node holds at most its fair
     * share of them ({@link FairSegmentShares}).
     */
    @Bean
    ConfigurerModule eventProcessingDefaults(ProcessingProperties properties, FairSegmentShares shares) {
        int batchSize = properties.batchSize();
        int segments = properties.initialSegments();
        return configurer -> configurer.eventProcessing(processing -> processing
                .usingPooledStreamingEventProcessors((config, builder) -> builder.batchSize(batchSize)
                        .initialSegmentCount(segments)
                        .maxSegmentProvider(shares)
                        .coordinatorExecutor(name -> background(config, 1, "Coordinator[" + name + "]"))
                        .workerExecutor(name -> background(config, 4, "WorkPackage[" + name + "]")))
                .registerDefaultListenerInvocationErrorHandler(c -> PropagatingErrorHandler.instance())
                .registerDefaultErrorHandler(c -> PropagatingErrorHandler.instance()));
    }

    /**
     * The publication timers' rows are written by a subscribing processor, in the transaction that
     * appends the events (and never on a replay). The dispatcher's tokens were set by the
     * migration that turned the work in flight into timer rows, at the head of the stream as it was
     * then; its error handler propagates, and splits the retry of a failed batch.
     */
    @Bean
    ConfigurerModule publishingProcessors(DispatcherErrorHandler dispatcherErrors) {
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerSubscribingEventProcessor(TimerRows.PROCESSING_GROUP)
                .registerSubscribingEventProcessor(WebhookSubscriptionProjection.PROCESSING_GROUP)
                .registerErrorHandler(PublicationDispatcher.PROCESSING_GROUP, c -> dispatcherErrors));
    }

    /** The dead-letter queue of the projections and the dispatcher: see {@link DeadLetters}. */
    @Bean
    ConfigurerModule projectionDeadLetters(ConnectionProvider connections, TransactionManager transactions,
                                           DeadLetterSchema schema) {
        return DeadLetters.queues(connections, transactions, schema);
    }

    /**
     * Axon's own executors for a processor (same threads, same names), at the lowest priority:
     * where the JVM maps priorities to the OS, requests are answered first and the events wait in
     * the store (docs/operations.md#running-more-than-one-node, "Under load").
     */
    private static ScheduledExecutorService background(org.axonframework.config.Configuration config, int threads,
                                                       String name) {
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(threads, BackgroundThreads.named(name));
        config.onShutdown(executor::shutdown);
        return executor;
    }

    /**
     * Commands sent from an HTTP request carry its correlation id and actor as metadata, and every
     * command sent in a span (a request's, an attempt's) its {@code traceparent}; Axon's
     * correlation providers then copy them onto every event and later message.
     */
    @Bean
    ConfigurerModule correlationOfRequests(Traces traces) {
        return configurer -> configurer.onInitialize(config -> config.onStart(() ->
                config.commandBus().registerDispatchInterceptor(requestMetadata(traces))));
    }

    static MessageDispatchInterceptor<CommandMessage<?>> requestMetadata(Traces traces) {
        return messages -> (index, message) -> {
            Map<String, String> metadata = new HashMap<>();
            // the span sending the command is its parent; outside any span the trace it carries stays
            String traceparent = traces.current();
            if (traceparent != null) {
                metadata.put(Traces.TRACEPARENT, traceparent);
            }
            String correlationId = MDC.get(CORRELATION_ID);
            // the request's id wins over one Axon derived from the command's own identifier
            if (correlationId != null) {
                metadata.put(CORRELATION_ID, correlationId);
            }
            String actor = MDC.get(ACTOR);
            if (actor != null && !message.getMetaData().containsKey(ACTOR)) {
                metadata.put(ACTOR, actor);
            }
            return metadata.isEmpty() ? message : message.andMetaData(metadata);
        };
    }

    /**
     * Axon's origin provider names each message's parent ({@code causationId}) and the root of its
     * chain ({@code traceId}); it would use {@code correlationId} for the parent, which is the
     * key Herald reserves for the HTTP request's id.
     */
    @Bean
    CorrelationDataProvider messageOrigin() {
        return new MessageOriginProvider("causationId", "traceId");
    }

    /**
     * The request's correlation id, the actor who started the chain and the trace travel with every
     * message, so a handler on another thread or node continues the trace ({@code traceparent}).
     */
    @Bean
    CorrelationDataProvider requestCorrelation() {
        return new SimpleCorrelationDataProvider(CORRELATION_ID, ACTOR, Traces.TRACEPARENT);
    }
}
