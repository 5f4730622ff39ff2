package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * Reading the post again after success found it gone (the provider says it does not exist): it was
 * removed after Herald published it. The publication stays SUCCEEDED with {@code vanishedAt}, and
 * waits for an operator's {@code confirm_removed} or {@code republish}. Nothing is posted again on
 * its own.
 *
 * @param providerRef the post read
 * @param detail      what the provider answered (status, reason; never a secret)
 */
@Revision("1")
public record PublicationVanishedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        ProviderRef providerRef,
        String detail,
        Instant vanishedAt) {
}
