package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * What reading the post again after success established: still there ({@code found}) or gone.
 * An inconclusive read is no command: it is read again later.
 */
public record RecordVerificationCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int attemptNo,
        boolean found,
        ProviderRef providerRef,
        String detail,
        Instant recordedAt) {
}
