package io.herald.contracts.channel;

import io.herald.contracts.id.WorkspaceId;

/** All channel connections of a workspace. */
public record FindChannelConnectionsQuery(WorkspaceId workspaceId) {
}
