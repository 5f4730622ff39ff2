package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The connection works again: a HELD publication becomes due; any other is left alone. */
public record ReleasePublicationCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        Instant releasedAt) {
}
