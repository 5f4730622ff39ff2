package io.herald.command.media;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.herald.contracts.id.WorkspaceId;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * How many image checks decode at once on this node, and with how much memory between them. A
 * check holds a slot of the node ({@code herald.media.max-concurrent-decodes}), one of its
 * workspace's (one at a time, so a workspace that floods the node leaves the other slots to the
 * others) and its estimated memory from the node's decode budget
 * ({@code herald.media.decode-memory}); an image estimated above the whole budget takes all of it
 * and decodes alone. A check that gets none within {@code herald.media.decode-wait} is refused with
 * 429 {@code rate_limited}: the client sends the same bytes again later, and nothing was stored.
 */
final class DecodeSlots {

    static final int PER_WORKSPACE = 1;
    private static final long KIB = 1024;

    private final Semaphore node;
    private final Semaphore memoryKib;
    private final int budgetKib;
    private final Duration wait;
    private final BulkheadRegistry workspaces;

    DecodeSlots(int maxConcurrent, long budgetBytes, Duration wait) {
        this.node = new Semaphore(maxConcurrent, true);
        this.budgetKib = (int) Math.max(1, Math.min(Integer.MAX_VALUE, budgetBytes / KIB));
        this.memoryKib = new Semaphore(budgetKib, true);
        this.wait = wait;
        this.workspaces = BulkheadRegistry.of(BulkheadConfig.custom().maxConcurrentCalls(PER_WORKSPACE)
                .maxWaitDuration(wait).build());
    }

    /** A held slot, given back when closed. */
    interface Slot extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * A slot for a check estimated to need {@code decodeBytes}.
     *
     * @throws Busy when none was free within the wait
     */
    Slot take(WorkspaceId workspace, long decodeBytes) {
        long deadline = System.nanoTime() + wait.toNanos();
        Bulkhead own = workspaces.bulkhead(workspace.value());
        if (!own.tryAcquirePermission()) {
            throw new Busy();
        }
        boolean nodeTaken = false;
        int kib = (int) Math.min(budgetKib, Math.max(1, (decodeBytes + KIB - 1) / KIB));
        try {
            nodeTaken = node.tryAcquire(remaining(deadline), TimeUnit.NANOSECONDS);
            if (!nodeTaken || !memoryKib.tryAcquire(kib, remaining(deadline), TimeUnit.NANOSECONDS)) {
                throw new Busy();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            release(own, nodeTaken);
            throw new Busy();
        } catch (Busy busy) {
            release(own, nodeTaken);
            throw busy;
        }
        return () -> {
            memoryKib.release(kib);
            release(own, true);
        };
    }

    private void release(Bulkhead own, boolean nodeTaken) {
        if (nodeTaken) {
            node.release();
        }
        own.onComplete();
    }

    private static long remaining(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    /** Every slot stayed taken for the whole wait (429 {@code rate_limited}, with {@code Retry-After}). */
    static final class Busy extends RuntimeException {
        Busy() {
            super("the node is checking as many images as it may at once; send the image again in a moment",
                    null, false, false);
        }
    }
}
