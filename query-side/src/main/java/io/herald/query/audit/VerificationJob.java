package io.herald.query.audit;

import java.time.Instant;

/**
 * A full re-verification of the store from its first event, running in the background.
 *
 * @param eventsDone  publication events verified so far
 * @param eventsTotal publication events in the store when the job counted them (0 until it has)
 * @param finishedAt  null while it runs
 */
public record VerificationJob(String jobId, Status status, long eventsDone, long eventsTotal, Instant startedAt,
                              Instant finishedAt) {

    public enum Status {
        RUNNING,
        DONE,
        FAILED
    }
}
