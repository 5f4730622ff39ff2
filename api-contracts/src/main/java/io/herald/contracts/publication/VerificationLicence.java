package io.herald.contracts.publication;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;

/** What a verification after success reads: the publication's post, by its reference at the provider. */
public record VerificationLicence(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        String calendarEntryId,
        int attemptNo,
        ProviderRef post,
        Content content) {
}
