package io.herald.command.publishing;

import io.herald.platform.unitofwork.BatchAggregates;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Group commit in the application: the commands for many items are sent as nested commands of one
 * unit of work, so their events (and the timer rows written with them) commit in one transaction.
 * If that transaction fails (typically a concurrent append to one of the publications), each item
 * is tried again alone, so one conflict costs one item its retry, not the batch.
 */
@Component
public class GroupCommit {

    private static final Logger log = LoggerFactory.getLogger(GroupCommit.class);

    private final TransactionManager transactions;

    public GroupCommit(TransactionManager transactions) {
        this.transactions = transactions;
    }

    /**
     * @param aggregateOf the aggregate each item's command goes to, declared for the batch so the
     *                    store is asked once for all of their versions ({@link BatchAggregates})
     * @return the items that failed even alone
     */
    public <T> List<T> inOneTransaction(List<T> items, Function<T, String> aggregateOf, Consumer<T> send) {
        if (items.isEmpty()) {
            return List.of();
        }
        try {
            run(() -> {
                BatchAggregates.declare(CurrentUnitOfWork.get(), items.stream().map(aggregateOf).toList());
                items.forEach(send);
            });
            return List.of();
        } catch (RuntimeException batchFailed) {
            if (items.size() == 1) {
                log.warn("a batch of one failed: {}", batchFailed.toString());
                return items;
            }
            log.info("a batch of {} failed ({}); sending each alone", items.size(), batchFailed.toString());
        }
        return items.stream().filter(item -> {
            try {
                run(() -> send.accept(item));
                return false;
            } catch (RuntimeException failed) {
                log.warn("sending {} alone failed: {}", item, failed.toString());
                return true;
            }
        }).toList();
    }

    /** One root unit of work with its transaction; nested commands join it, after-commit hooks run after it. */
    public void run(Runnable work) {
        UnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(null);
        unitOfWork.attachTransaction(transactions);
        try {
            work.run();
        } catch (RuntimeException | Error e) {
            unitOfWork.rollback(e);
            throw e;
        }
        unitOfWork.commit();
    }
}
