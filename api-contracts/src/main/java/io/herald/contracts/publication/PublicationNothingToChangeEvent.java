package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/** An update or delete found no post to act on when its turn came (the publish never executed, or the post was deleted): it ends FAILED with {@code nothing_to_change} and nothing was sent. */
@Revision("1")
public record PublicationNothingToChangeEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        String detail,
        Instant refusedAt) {
}
