package io.herald.contracts.publication;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Asks for a publication. Idempotent: the id is the idempotency key, so the same request twice
 * yields one publication; the same key with other content is refused.
 *
 * @param steps the channel's step kinds for the action (null: the core kinds)
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
        String requestedBy,
        List<PublicationStep> steps) {

    /** A request planned with the core kinds ({@link PublicationStep#coreKinds}). */
    public RequestPublicationCommand(PublicationId publicationId, WorkspaceId workspaceId, String calendarEntryId,
                                     long contentVersion, ChannelId channelId, ChannelType channelType,
                                     PublicationAction action, Content content, Instant scheduledAt,
                                     Instant requestedAt, String requestedBy) {
        this(publicationId, workspaceId, calendarEntryId, contentVersion, channelId, channelType, action, content,
                scheduledAt, requestedAt, requestedBy, null);
    }
}
