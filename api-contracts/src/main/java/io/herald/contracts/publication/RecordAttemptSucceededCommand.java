package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The provider confirmed the effect and returned where the post lives. */
public record RecordAttemptSucceededCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int attemptNo,
        ProviderRef providerRef,
        AttemptTrace trace,
        Instant recordedAt) {
}
