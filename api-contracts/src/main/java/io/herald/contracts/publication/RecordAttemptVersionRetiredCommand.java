package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The provider refused the attempt because it no longer serves the API version Herald sent: proof
 * that the write did not execute. The publication is HELD (reason {@code api_version}), never failed.
 *
 * @param reason what fixes it, naming the configuration property
 */
public record RecordAttemptVersionRetiredCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int attemptNo,
        String providerCode,
        String reason,
        AttemptTrace trace,
        Instant recordedAt) {
}
