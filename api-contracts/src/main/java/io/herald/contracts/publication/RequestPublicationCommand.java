package io.herald.contracts.publication;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Asks for a publication. Idempotent: the id is the idempotency key, so the same request twice
 * yields one publication; the same key with other content is refused.
 */
public record RequestPublicationCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        WorkspaceId workspaceId,
        String calendarEntryId,
        long contentVersion,
        ChannelId channelId,
        ChannelType channelType,
        PublicationAction action,
        Content content,
        Instant scheduledAt,
        Instant requestedAt,
        String requestedBy) {
}
