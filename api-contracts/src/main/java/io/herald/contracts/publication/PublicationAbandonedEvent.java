package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/** An operator gave the publication up. Terminal. */
@Revision("1")
public record PublicationAbandonedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        String abandonedBy,
        String note,
        Instant abandonedAt) {
}
