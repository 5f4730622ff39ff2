package io.herald.contracts.publication;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import java.util.List;
import org.axonframework.serialization.Revision;

/**
 * Revision 2: the content may carry images and a first comment (revision 1 had neither). Revision
 * 3: the step kinds the channel carries out for the action, as its plug-in named them at intake
 * (earlier revisions planned the core kinds).
 *
 * @param steps the channel's step kinds for the action, from which {@link PublicationStep#plan} plans
 */
@Revision("3")
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
        String requestedBy,
        List<PublicationStep> steps) {

    public PublicationRequestedEvent {
        steps = steps == null ? null : List.copyOf(steps);
    }

    /** A request planned with the core kinds ({@link PublicationStep#coreKinds}). */
    public PublicationRequestedEvent(PublicationId publicationId, WorkspaceId workspaceId, String calendarEntryId,
                                     long contentVersion, ChannelId channelId, ChannelType channelType,
                                     PublicationAction action, Content content, String contentHash,
                                     Instant scheduledAt, Instant requestedAt, String requestedBy) {
        this(publicationId, workspaceId, calendarEntryId, contentVersion, channelId, channelType, action, content,
                contentHash, scheduledAt, requestedAt, requestedBy, null);
    }
}
