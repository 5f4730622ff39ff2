package io.herald.contracts.channel;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * The connection's provider API version reaches its sunset within {@code herald.channels.version-warning}:
 * one per connection and version.
 */
@Revision("1")
public record ChannelApiVersionExpiringEvent(
        ChannelConnectionId connectionId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        String version,
        Instant sunsetAt,
        Instant warnedAt) {
}
