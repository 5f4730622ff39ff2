package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** A client asks to run a publication now (again): API.md {@code POST …/execute}. */
public record ExecutePublicationCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        String requestedBy,
        Instant requestedAt) {
}
