package io.herald.command.publishing;

import io.herald.adapters.port.ReadBackOutcome;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.RecordReconciliationCommand;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The one read-back path (reconciliation's, wired in by the application): used after an unknown
 * outcome and before a re-attempt alike, with reconciliation's schedule of reads.
 */
public interface ReadBackPath {

    /** How long after an unknown outcome the first read waits (a post can appear late). */
    Duration settleDelay();

    /** The wait after read {@code readNo} stays inconclusive; empty when the operator takes over. */
    Optional<Duration> delayAfterRead(int readNo);

    /** Reads at the provider what the licence describes; never fails, an error is an unknown outcome. */
    CompletableFuture<ReadBackOutcome> read(ReadBackLicence licence);

    /** What read {@code readNo} established, as the command that records it; empty if nothing is worth recording. */
    Optional<RecordReconciliationCommand> toRecord(ReadBackLicence licence, int readNo, ReadBackOutcome outcome);
}
