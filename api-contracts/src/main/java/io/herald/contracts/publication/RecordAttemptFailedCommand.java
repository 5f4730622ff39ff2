package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Duration;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The provider refused, or the request provably never left. Whether and when to retry is the
 * publication's decision (its retry policy, on its own history); the answer is the retry time, or
 * null when the failure is final.
 *
 * @param errorCode     a stable code for the cause (provider code or Herald's, e.g. {@code duplicate_content})
 * @param detail        an operator-readable cause and, where known, the fix; never a secret
 * @param providerDelay how long the provider asked to wait (e.g. {@code Retry-After}); null if it did not say
 */
public record RecordAttemptFailedCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int attemptNo,
        FailureKind kind,
        String errorCode,
        String detail,
        AttemptTrace trace,
        Duration providerDelay,
        Instant recordedAt) {
}
