package io.herald.command.publishing;

import io.herald.adapters.port.ReadBackOutcome;
import io.herald.command.publishing.PublicationTimers.Timer;
import io.herald.contracts.publication.ReadBackLicence;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The read-back process as the publishing core meets it; reconciliation owns and implements it
 * (its schedule of reads, the licence it asks for, the read, the verdict, what a read tells about
 * the connection's health, and the command that records it). The core only keeps the timer row,
 * fires it, and asks for the read before a re-attempt.
 */
public interface ReadBackPath {

    /** How long after an unknown outcome the first read waits (a post can appear late). */
    Duration settleDelay();

    /**
     * A due {@code READ_BACK_DUE} row, inside the sweep's unit of work: asks the publication for the
     * licence, moves the row on to the next read (or deletes it), and reads after commit.
     *
     * @return whether the row had an effect; false: the read was moot, and the caller deletes the row
     */
    boolean fire(Timer timer);

    /** Reads at the provider what the licence describes; never fails, an error is an unknown outcome. */
    CompletableFuture<ReadBackOutcome> read(ReadBackLicence licence);
}
