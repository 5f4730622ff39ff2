package io.herald.platform.unitofwork;

import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;

/**
 * The aggregates a batch's unit of work is about to load, known before its first command: the
 * publications of a batch of events (the dispatcher's), or those a sender declares for its batch of
 * commands. Whatever checks each aggregate against the store can then ask once for all of them.
 */
public final class BatchAggregates {

    private static final String RESOURCE = BatchAggregates.class.getName();

    private BatchAggregates() {
    }

    /** Declares the aggregates of the batch that {@code unitOfWork} (a root) carries. */
    public static void declare(UnitOfWork<?> unitOfWork, Collection<String> aggregateIds) {
        unitOfWork.resources().put(RESOURCE, Set.copyOf(aggregateIds));
    }

    /**
     * The aggregates of the current root unit of work's batch: those declared for it, else the
     * aggregates whose events a batching unit of work handles; empty outside a batch.
     */
    public static Optional<Set<String>> ofCurrentBatch() {
        if (!CurrentUnitOfWork.isStarted()) {
            return Optional.empty();
        }
        UnitOfWork<?> root = CurrentUnitOfWork.get().root();
        Set<String> declared = root.getResource(RESOURCE);
        if (declared != null) {
            return Optional.of(declared);
        }
        if (root instanceof BatchingUnitOfWork<?> batch && batch.getMessages().size() > 1) {
            return Optional.of(batch.getMessages().stream()
                    .filter(DomainEventMessage.class::isInstance)
                    .map(message -> ((DomainEventMessage<?>) message).getAggregateIdentifier())
                    .collect(Collectors.toUnmodifiableSet()));
        }
        return Optional.empty();
    }
}
