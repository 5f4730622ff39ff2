package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/** An update whose content version is lower than one already applied to the entry's post: it ends without a provider call. Terminal. */
@Revision("1")
public record PublicationSupersededEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        long contentVersion,
        long appliedVersion,
        String detail,
        Instant supersededAt) {
}
