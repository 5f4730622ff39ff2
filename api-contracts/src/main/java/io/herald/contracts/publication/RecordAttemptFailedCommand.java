package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The provider refused, or the request provably never left.
 *
 * @param errorCode a stable code for the cause (provider code or Herald's, e.g. {@code duplicate_content})
 * @param detail    an operator-readable cause and, where known, the fix; never a secret
 * @param retryAt   when to try again; only allowed for failures that provably did not execute
 */
public record RecordAttemptFailedCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int attemptNo,
        FailureKind kind,
        String errorCode,
        String detail,
        AttemptTrace trace,
        Instant retryAt,
        Instant recordedAt) {
}
