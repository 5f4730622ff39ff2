package io.herald.contracts.channel;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/** The connection's token lapses soon ({@code herald.channels.expiry-warning}): one per connection and expiry. */
@Revision("1")
public record ChannelTokenExpiringEvent(
        ChannelConnectionId connectionId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        Instant expiresAt,
        Instant warnedAt) {
}
