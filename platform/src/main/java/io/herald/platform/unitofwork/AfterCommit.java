package io.herald.platform.unitofwork;

import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one hand-off from a transaction to what may only happen once it committed (a provider call
 * after its write-ahead event, an answer after its record). Axon runs after-commit work with its
 * errors suppressed and logged at INFO; here a failure is an ERROR that names the work, since
 * whatever was handed off is then left to its timer row.
 */
public final class AfterCommit {

    private static final Logger log = LoggerFactory.getLogger(AfterCommit.class);

    private AfterCommit() {
    }

    /** Runs {@code work} after the current unit of work commits; never if it rolls back. */
    public static void run(String what, Runnable work) {
        CurrentUnitOfWork.get().afterCommit(unitOfWork -> {
            try {
                work.run();
            } catch (RuntimeException | Error e) {
                log.error("{} failed after its transaction committed", what, e);
            }
        });
    }
}
