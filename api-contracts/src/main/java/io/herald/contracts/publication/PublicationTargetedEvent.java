package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/** An update or delete took its turn in the entry's order and acts on {@code target}, the post of the entry's latest succeeded publish or draft at the channel. */
@Revision("1")
public record PublicationTargetedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        ProviderRef target,
        Instant targetedAt) {
}
