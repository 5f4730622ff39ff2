package io.herald.command.channel;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.herald.contracts.id.WorkspaceId;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * At most {@link #PER_WORKSPACE} capability probes of one workspace run at once on this node: a
 * probe calls a host the workspace chose, and a slow one must not let a tenant tie up threads and
 * sockets for everyone. Per node: with N nodes a workspace gets at most N times as many.
 */
final class ProbeSlots {

    static final int PER_WORKSPACE = 2;

    /** A bulkhead per workspace that refuses at once when full: a probe never waits for a slot. */
    private final BulkheadRegistry bulkheads = BulkheadRegistry.of(BulkheadConfig.custom()
            .maxConcurrentCalls(PER_WORKSPACE).maxWaitDuration(Duration.ZERO).build());

    /**
     * A slot, released when closed.
     *
     * @throws TooManyProbes when the workspace's slots are all taken
     */
    CapabilityProbes.Slot take(WorkspaceId workspace) {
        Bulkhead bulkhead = bulkheads.bulkhead(workspace.value());
        if (!bulkhead.tryAcquirePermission()) {
            throw new TooManyProbes();
        }
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                bulkhead.onComplete();
            }
        };
    }

    /** The workspace already runs as many probes as allowed (429 {@code rate_limited}). */
    public static final class TooManyProbes extends RuntimeException {
        TooManyProbes() {
            super("this workspace already runs " + PER_WORKSPACE + " capability probes; retry when one has finished",
                    null, false, false);
        }
    }
}
