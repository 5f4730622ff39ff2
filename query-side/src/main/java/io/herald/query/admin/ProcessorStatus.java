package io.herald.query.admin;

import io.herald.platform.projection.RebuildProgress;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;

/**
 * Where an event processor stands.
 *
 * @param projection true when it can be rebuilt (its handlers support a reset); the dispatcher never is
 * @param running    it has been started and not shut down
 * @param replaying  this node is rebuilding it, or some segment is still marked as replaying after
 *                   a reset; Axon clears the mark only when the segment handles an event newer than
 *                   the reset point
 * @param caughtUp   not being rebuilt, and every segment is claimed and has reached the head of the
 *                   store
 * @param error      a segment is in error (it retries; the cause is in the log), or this node's last
 *                   rebuild of it failed (its rows are as before; the cause is in the log), or null
 * @param rebuild    how far this node's running or last rebuild of it got since the node started,
 *                   or null if it rebuilt none
 */
public record ProcessorStatus(
        String name,
        boolean projection,
        boolean running,
        boolean replaying,
        boolean caughtUp,
        List<Segment> segments,
        String error,
        Rebuild rebuild) {

    /**
     * A rebuild's progress.
     *
     * @param running         true until it has committed (or failed)
     * @param eventsDone      stored events handled so far
     * @param eventsTotal     stored events of the types it reads, counted when it began; null until then
     * @param eventsPerSecond events handled per second since it began
     * @param etaSeconds      seconds left at that rate; null when not running or not yet known
     * @param startedAt       when it began
     * @param seconds         how long it has run, or ran
     */
    @Schema(name = "ProcessorRebuild")
    public record Rebuild(boolean running, long eventsDone, Long eventsTotal, long eventsPerSecond, Long etaSeconds,
                          Instant startedAt, double seconds) {

        static Rebuild of(RebuildProgress progress) {
            return new Rebuild(progress.running(), progress.eventsDone(), progress.eventsTotal(),
                    progress.eventsPerSecond(), progress.etaSeconds(), progress.startedAt(), progress.seconds());
        }
    }

    @Schema(name = "ProcessorSegment")
    public record Segment(int segment, boolean caughtUp, boolean replaying, Long position, boolean errored) {
    }
}
