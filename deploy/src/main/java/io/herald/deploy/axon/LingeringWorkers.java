package io.herald.deploy.axon;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The threads that run a pooled streaming processor's batches. Axon starts a segment's batch as
 * soon as its first event is handed over, and the batch holds what has arrived by then: under a
 * steady stream of publications that is a few events, each batch paying its own transaction,
 * token write and reads. Here a batch started by a newly arrived event waits {@code linger} first,
 * so the events of that moment go in one batch (at most the batch size). A batch started by the
 * segment's own thread, because events were left over from the last one, starts at once: a
 * processor behind the store is never slowed by the wait. Order, transactions and retries are
 * Axon's; only when a batch starts changes.
 */
final class LingeringWorkers extends ScheduledThreadPoolExecutor {

    private static final ThreadLocal<LingeringWorkers> OWNER = new ThreadLocal<>();

    private final long lingerNanos;

    LingeringWorkers(int threads, ThreadFactory threadFactory, Duration linger) {
        super(threads);
        setThreadFactory(runnable -> threadFactory.newThread(() -> {
            OWNER.set(this);
            runnable.run();
        }));
        this.lingerNanos = linger.toNanos();
    }

    @Override
    public Future<?> submit(Runnable task) {
        if (lingerNanos <= 0 || OWNER.get() == this) {
            return super.submit(task);
        }
        return schedule(task, lingerNanos, TimeUnit.NANOSECONDS);
    }

    /** How long a batch waits for more events after its first one. */
    Duration linger() {
        return Duration.ofNanos(lingerNanos);
    }
}
