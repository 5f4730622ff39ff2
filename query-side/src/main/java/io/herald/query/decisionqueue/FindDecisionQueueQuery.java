package io.herald.query.decisionqueue;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;

/**
 * A page of a workspace's publications that need an operator's decision, oldest first so that
 * what has waited longest comes first.
 *
 * @param channelId optional filter
 * @param cursor    from the previous page's {@code nextCursor}; null for the first page
 * @param limit     0 or less for the default
 */
public record FindDecisionQueueQuery(WorkspaceId workspaceId, ChannelId channelId, String cursor, int limit) {
}
