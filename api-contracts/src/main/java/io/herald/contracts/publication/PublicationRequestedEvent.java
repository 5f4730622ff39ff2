package io.herald.contracts.publication;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/** Revision 2: the content may carry images and a first comment (revision 1 had neither). */
@Revision("2")
public record PublicationRequestedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        String calendarEntryId,
        long contentVersion,
        ChannelId channelId,
        ChannelType channelType,
        PublicationAction action,
        Content content,
        String contentHash,
        Instant scheduledAt,
        Instant requestedAt,
        String requestedBy) {
}
