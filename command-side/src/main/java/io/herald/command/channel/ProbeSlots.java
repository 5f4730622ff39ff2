package io.herald.command.channel;

import io.herald.contracts.id.WorkspaceId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * At most {@link #PER_WORKSPACE} capability probes of one workspace run at once on this node: a
 * probe calls a host the workspace chose, and a slow one must not let a tenant tie up threads and
 * sockets for everyone. Per node: with N nodes a workspace gets at most N times as many.
 */
final class ProbeSlots {

    static final int PER_WORKSPACE = 2;

    private final Map<WorkspaceId, Integer> running = new ConcurrentHashMap<>();

    /**
     * A slot, released when closed.
     *
     * @throws TooManyProbes when the workspace's slots are all taken
     */
    CapabilityProbes.Slot take(WorkspaceId workspace) {
        boolean[] admitted = new boolean[1];
        running.compute(workspace, (ws, n) -> {
            int now = n == null ? 0 : n;
            admitted[0] = now < PER_WORKSPACE;
            return admitted[0] ? now + 1 : n;
        });
        if (!admitted[0]) {
            throw new TooManyProbes();
        }
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                running.computeIfPresent(workspace, (ws, n) -> n <= 1 ? null : n - 1);
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
