package io.herald.adapters.port;

import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;

/** Everything an adapter needs to reach one channel connection, secrets included. */
public record ChannelConnection(
        WorkspaceId workspaceId,
        ChannelId channelId,
        ChannelType type,
        ChannelSettings settings,
        ChannelSecrets secrets,
        boolean autoReattemptAfterNotFound) {
}
