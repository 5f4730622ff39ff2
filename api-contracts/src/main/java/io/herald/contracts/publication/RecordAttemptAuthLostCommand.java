package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The provider refused the attempt because the connection's credentials are expired or revoked:
 * proof that the write did not execute. The publication is HELD, never failed.
 */
public record RecordAttemptAuthLostCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int attemptNo,
        String providerCode,
        String reason,
        AttemptTrace trace,
        Instant recordedAt) {
}
