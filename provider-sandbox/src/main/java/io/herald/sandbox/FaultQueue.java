package io.herald.sandbox;

import java.util.Iterator;
import java.util.LinkedList;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The faults scripted per provider and target, taken in the order they were added. */
public final class FaultQueue {

    private final Map<String, LinkedList<SandboxFault>> faults = new ConcurrentHashMap<>();

    private static String key(String provider, String target) {
        return provider + "|" + target;
    }

    public void add(SandboxFault fault) {
        LinkedList<SandboxFault> queue = faults.computeIfAbsent(key(fault.provider(), fault.target()),
                k -> new LinkedList<>());
        synchronized (queue) {
            queue.addLast(fault);
        }
    }

    public void clear() {
        faults.clear();
    }

    /** Takes the first queued fault of the target that covers this request, counting it down. */
    public Optional<SandboxFault> take(String provider, String target, SandboxFault.Operation operation) {
        LinkedList<SandboxFault> queue = faults.get(key(provider, target));
        if (queue == null) {
            return Optional.empty();
        }
        synchronized (queue) {
            for (Iterator<SandboxFault> it = queue.iterator(); it.hasNext(); ) {
                SandboxFault fault = it.next();
                if (fault.operation().covers(operation)) {
                    it.remove();
                    if (fault.times() > 1) {
                        queue.addFirst(fault.withTimes(fault.times() - 1));
                    }
                    return Optional.of(fault);
                }
            }
        }
        return Optional.empty();
    }
}
