package io.herald.contracts.publication;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;

/**
 * A page of a workspace's publications, newest first, with optional filters.
 *
 * @param cursor opaque, from the previous page's {@code nextCursor}; null for the first page
 */
public record FindPublicationsQuery(
        WorkspaceId workspaceId,
        PublicationStatus status,
        ChannelId channelId,
        String calendarEntryId,
        Boolean needsDecision,
        String cursor,
        int limit) {
}
