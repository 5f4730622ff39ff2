package io.herald.command.channel;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.herald.contracts.id.WorkspaceId;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How many checks of a new or changed connection with its provider ({@code ChannelPlugin.verify},
 * up to {@link ChannelConnectionService#VERIFY_PATIENCE} each) run at once on this node: one per
 * workspace, and {@code herald.channels.max-concurrent-checks} in all, so a workspace whose provider
 * is slow cannot tie up request threads for the others. A check that finds no slot free is refused
 * at once (429 {@code rate_limited} with {@link #RETRY_AFTER}), before anything is stored; it never
 * waits. Per node: with N nodes a workspace gets at most N at once.
 */
final class ConnectionCheckSlots {

    static final int PER_WORKSPACE = 1;
    /** What a refused {@code PUT} is told to wait before it is sent again. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    private final Semaphore node;
    private final int maxConcurrent;
    private final BulkheadRegistry workspaces = BulkheadRegistry.of(BulkheadConfig.custom()
            .maxConcurrentCalls(PER_WORKSPACE).maxWaitDuration(Duration.ZERO).build());

    ConnectionCheckSlots(int maxConcurrent) {
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("herald.channels.max-concurrent-checks must be at least 1");
        }
        this.maxConcurrent = maxConcurrent;
        this.node = new Semaphore(maxConcurrent);
    }

    /** A held slot, given back when closed (once). */
    interface Slot extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * A slot for one check of {@code workspace}'s.
     *
     * @throws Busy when the workspace already runs its check, or the node as many as it may
     */
    Slot take(WorkspaceId workspace) {
        Bulkhead own = workspaces.bulkhead(workspace.value());
        if (!own.tryAcquirePermission()) {
            throw new Busy("this workspace's connection is already being checked with its provider; send this one "
                    + "again when that check has finished (nothing was stored)");
        }
        if (!node.tryAcquire()) {
            own.onComplete();
            throw new Busy("this node is already checking " + maxConcurrent + " connections with their providers; "
                    + "send this one again in a moment (nothing was stored)");
        }
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                node.release();
                own.onComplete();
            }
        };
    }

    /** No slot was free (429 {@code rate_limited}, with {@code Retry-After}). */
    public static final class Busy extends RuntimeException {
        Busy(String message) {
            super(message, null, false, false);
        }
    }
}
