package io.herald.deploy.webhooks;

import io.herald.contracts.id.WorkspaceId;
import java.util.HashMap;
import java.util.Map;

/**
 * How many tries this node may have open: at most {@code total} in all and at most
 * {@code perWorkspace} for any one workspace, so a workspace whose endpoints hold every try for
 * its whole timeout still leaves the rest of the slots to the others. Taken by the poller,
 * given back by whichever thread records a try's end.
 */
final class InFlightSlots {

    private final int total;
    private final int perWorkspace;
    private final Map<WorkspaceId, Integer> byWorkspace = new HashMap<>();
    private int open;

    InFlightSlots(int total, int perWorkspace) {
        if (total < 1 || perWorkspace < 1) {
            throw new IllegalArgumentException("slots must be positive: " + total + ", " + perWorkspace);
        }
        this.total = total;
        this.perWorkspace = perWorkspace;
    }

    int perWorkspace() {
        return perWorkspace;
    }

    /** How many more tries this node may open now, over all workspaces. */
    synchronized int free() {
        return total - open;
    }

    /** The workspaces with tries open now, and how many each. */
    synchronized Map<WorkspaceId, Integer> busy() {
        return Map.copyOf(byWorkspace);
    }

    /** Takes a slot for a try of {@code workspace}; false when the node or the workspace has none left. */
    synchronized boolean tryAcquire(WorkspaceId workspace) {
        int mine = byWorkspace.getOrDefault(workspace, 0);
        if (open >= total || mine >= perWorkspace) {
            return false;
        }
        open++;
        byWorkspace.put(workspace, mine + 1);
        return true;
    }

    synchronized void release(WorkspaceId workspace) {
        Integer mine = byWorkspace.get(workspace);
        if (mine == null) {
            throw new IllegalStateException("no slot of " + workspace + " is taken");
        }
        open--;
        if (mine == 1) {
            byWorkspace.remove(workspace);
        } else {
            byWorkspace.put(workspace, mine - 1);
        }
    }
}
