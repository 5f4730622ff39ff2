package io.herald.contracts.channel;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;

/** A connection as admins and operators see it: settings and capabilities, never secrets. */
public record ChannelConnectionView(
        WorkspaceId workspaceId,
        ChannelId channelId,
        ChannelType type,
        ChannelSettings settings,
        boolean autoReattemptAfterNotFound,
        Capabilities capabilities,
        Instant probedAt,
        Instant updatedAt) {

    public record Capabilities(Capability publish, Capability reconcile) {
    }
}
