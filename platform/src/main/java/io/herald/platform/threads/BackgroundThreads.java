package io.herald.platform.threads;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one factory of Herald's background threads: daemons at the lowest Java priority, so that
 * where the JVM maps priorities to the OS, requests are answered first (docs/operations.md#running-more-than-one-node, "Under load").
 */
public final class BackgroundThreads {

    private BackgroundThreads() {
    }

    /** Threads named {@code name-0}, {@code name-1}, … */
    public static ThreadFactory named(String name) {
        AtomicInteger next = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + next.getAndIncrement());
            thread.setDaemon(true);
            thread.setPriority(Thread.MIN_PRIORITY);
            return thread;
        };
    }
}
