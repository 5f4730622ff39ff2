package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A client asks to run a publication now (again): docs/api.md#publications {@code POST …/execute}. The workspace is the
 * caller's: another workspace's publication answers as if it did not exist.
 */
public record ExecutePublicationCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        WorkspaceId workspaceId,
        String requestedBy,
        Instant requestedAt) {
}
