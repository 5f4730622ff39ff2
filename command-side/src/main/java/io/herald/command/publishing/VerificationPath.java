package io.herald.command.publishing;

import io.herald.command.publishing.PublicationTimers.Timer;

/**
 * The verification after success as the publishing core meets it; reconciliation owns and
 * implements it (the licence it asks for, the read, what the read establishes, and the schedule
 * of reads while the answer is inconclusive). The core only keeps the timer row and fires it.
 */
public interface VerificationPath {

    /**
     * A due {@code VERIFY_DUE} row, inside the sweep's unit of work: asks the publication for the
     * licence, moves the row on to the next read (or deletes it), and reads after commit.
     *
     * @return whether the row had an effect; false: the read was moot, and the caller deletes the row
     */
    boolean fire(Timer timer);
}
