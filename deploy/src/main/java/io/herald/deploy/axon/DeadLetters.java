package io.herald.deploy.axon;

import io.herald.command.publishing.PublicationDispatcher;
import io.herald.query.channel.ChannelViewProjection;
import io.herald.query.publication.PublicationViewProjection;
import java.sql.SQLException;
import java.util.List;
import org.axonframework.common.AxonTransientException;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.deadletter.jdbc.DeadLetterSchema;
import org.axonframework.eventhandling.deadletter.jdbc.JdbcSequencedDeadLetterQueue;
import org.axonframework.messaging.deadletter.Decisions;
import org.axonframework.messaging.deadletter.EnqueuePolicy;
import org.axonframework.modelling.command.ConcurrencyException;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

/**
 * The dead-letter queue of the projections and the dispatcher ({@code dead_letter_entry}): an
 * event whose handler fails for a reason retrying cannot fix (a bug, a payload it cannot read) is
 * set aside with the rest of its publication's events, and the processor goes on with the others.
 * A failure that can pass (the database, a lock, a conflict) is not dead-lettered: it propagates,
 * the batch rolls back and is retried, as everywhere else. A start the publication fails inside
 * the dispatcher's batch spoils the batch's transaction, so no dead letter can be kept for it;
 * the retry of that batch hands its attempts to timer rows, and a start that keeps failing is
 * left on its own row ({@link io.herald.command.publishing.PublicationTimers#stuck}).
 */
final class DeadLetters {

    static final List<String> GROUPS = List.of(PublicationViewProjection.PROCESSING_GROUP,
            ChannelViewProjection.PROCESSING_GROUP, PublicationDispatcher.PROCESSING_GROUP);

    private DeadLetters() {
    }

    static ConfigurerModule queues(ConnectionProvider connections, TransactionManager transactions,
                                   DeadLetterSchema schema) {
        return configurer -> configurer.eventProcessing(processing -> GROUPS.forEach(group -> processing
                .registerDeadLetterQueue(group, config -> JdbcSequencedDeadLetterQueue.<EventMessage<?>>builder()
                        .processingGroup(group)
                        .connectionProvider(connections)
                        .transactionManager(transactions)
                        .schema(schema)
                        .genericSerializer(config.serializer())
                        .eventSerializer(config.eventSerializer())
                        .build())
                .registerDeadLetterPolicy(group, config -> onlyWhatRetryingCannotFix())
                // the queue is empty nearly always: remember that, instead of asking it for every event
                .registerDeadLetteringEventHandlerInvokerConfiguration(group, (config, builder) -> builder
                        .enableSequenceIdentifierCache()
                        .allowReset(true))));
    }

    static EnqueuePolicy<EventMessage<?>> onlyWhatRetryingCannotFix() {
        return (letter, cause) -> {
            if (mayPass(cause)) {
                throw cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
            }
            return Decisions.enqueue(cause);
        };
    }

    /** A JSON parse error is an IOException too, and never passes: only the database's and Axon's own count. */
    static boolean mayPass(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException || t instanceof DataAccessException || t instanceof TransactionException
                    || t instanceof AxonTransientException || t instanceof ConcurrencyException) {
                return true;
            }
        }
        return false;
    }
}
