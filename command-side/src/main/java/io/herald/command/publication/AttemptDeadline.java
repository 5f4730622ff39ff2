package io.herald.command.publication;

import java.time.Instant;

/**
 * Payload of the deadline scheduled with every attempt: if the attempt still has no result when
 * it fires, the attempt was interrupted and its outcome is unknown.
 */
record AttemptDeadline(int attemptNo, Instant expiresAt) {

    static final String NAME = "publication-attempt-expiry";
}
