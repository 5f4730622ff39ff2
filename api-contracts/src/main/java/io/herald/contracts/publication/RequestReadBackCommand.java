package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * An operator asks Herald to read back now (docs/api.md#the-contract-in-one-page {@code POST …/reconcile}), e.g. after new
 * credentials made read-back possible. Only meaningful while the outcome is unknown.
 */
public record RequestReadBackCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        WorkspaceId workspaceId,
        String requestedBy,
        Instant requestedAt) {
}
