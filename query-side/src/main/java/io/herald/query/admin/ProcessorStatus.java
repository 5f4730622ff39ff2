package io.herald.query.admin;

import io.swagger.v3.oas.annotations.media.Schema;
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
 */
public record ProcessorStatus(
        String name,
        boolean projection,
        boolean running,
        boolean replaying,
        boolean caughtUp,
        List<Segment> segments,
        String error) {

    @Schema(name = "ProcessorSegment")
    public record Segment(int segment, boolean caughtUp, boolean replaying, Long position, boolean errored) {
    }
}
