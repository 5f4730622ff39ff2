package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/** An operator asked for a read-back of the attempt whose outcome is unknown. */
@Revision("1")
public record PublicationReadBackRequestedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        int attemptNo,
        String requestedBy,
        Instant requestedAt) {
}
