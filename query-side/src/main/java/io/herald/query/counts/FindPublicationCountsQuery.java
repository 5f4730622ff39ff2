package io.herald.query.counts;

import io.herald.contracts.id.WorkspaceId;

/** How many publications a workspace has, per status and per channel. */
public record FindPublicationCountsQuery(WorkspaceId workspaceId) {
}
