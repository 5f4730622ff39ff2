package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * Reading the post again after success found it still there. The publication stays SUCCEEDED.
 *
 * @param providerRef the post read: its id and URL at the provider
 * @param detail      what the read showed, in the adapter's words (never a secret)
 */
@Revision("1")
public record PublicationVerifiedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        ProviderRef providerRef,
        String detail,
        Instant verifiedAt) {
}
