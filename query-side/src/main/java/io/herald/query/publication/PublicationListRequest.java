package io.herald.query.publication;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.PublicationStatus;

/**
 * A page of a workspace's publications as the repository reads it; the filters left null do not
 * apply.
 *
 * @param after the previous page's cursor, null for the first page
 */
public record PublicationListRequest(
        WorkspaceId workspaceId,
        PublicationStatus status,
        ChannelId channelId,
        String calendarEntryId,
        Boolean needsDecision,
        PublicationCursor after,
        int limit,
        Order order) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 200;

    public enum Order {
        NEWEST_FIRST,
        OLDEST_FIRST
    }

    /** The limit a query asked for, where 0 or less means "the default" and more than the maximum is capped. */
    public static int effectiveLimit(int requested) {
        if (requested <= 0) {
            return DEFAULT_LIMIT;
        }
        return Math.min(requested, MAX_LIMIT);
    }
}
