package io.herald.platform.projection;

import java.time.Duration;
import java.time.Instant;

/**
 * How far this node's last rebuild of a projection got.
 *
 * @param running     true until it has committed or failed
 * @param eventsDone  stored events handed to the projection's handlers so far
 * @param eventsTotal stored events of the types it reads, counted when it began (events appended
 *                    since are the processor's, after the rebuild); null until counted
 * @param startedAt   when it began
 * @param seconds     how long it has run, or ran
 */
public record RebuildProgress(boolean running, long eventsDone, Long eventsTotal, Instant startedAt, double seconds) {

    /** Events handled per second since it began; 0 before the first page. */
    public long eventsPerSecond() {
        return seconds <= 0 ? 0 : Math.round(eventsDone / seconds);
    }

    /**
     * Seconds left at the rate so far; null when it is not running, nothing is counted yet, or no
     * event has been handled yet; 0 once every counted event is handled (the commit is left).
     */
    public Long etaSeconds() {
        if (!running || eventsTotal == null || eventsDone == 0) {
            return null;
        }
        return (long) Math.ceil(Math.max(0, eventsTotal - eventsDone) * seconds / eventsDone);
    }

    /** A line for the log. */
    String describe(String name) {
        Long eta = etaSeconds();
        return String.format("projection %s: %,d of %s events, %,d events/s%s", name, eventsDone,
                eventsTotal == null ? "?" : String.format("%,d", eventsTotal), eventsPerSecond(),
                eta == null ? "" : ", about " + Duration.ofSeconds(eta).toString().substring(2).toLowerCase() + " left");
    }

    /** A running rebuild's counters: written by its one handling thread, read by any. */
    static final class Tracker {
        private final Instant startedAt = Instant.now();
        private final long started = System.nanoTime();
        volatile long done;
        volatile Long total;
        private volatile long finished;

        void finish() {
            finished = System.nanoTime();
        }

        RebuildProgress snapshot() {
            long end = finished;
            boolean running = end == 0;
            return new RebuildProgress(running, done, total, startedAt,
                    ((running ? System.nanoTime() : end) - started) / 1e9);
        }
    }
}
