package io.herald.contracts.channel;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/** The connection's token expires at {@code expiresAt} (null: no known expiry). */
@Revision("1")
public record ChannelTokenExpiryRecordedEvent(
        ChannelConnectionId connectionId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        long credentialVersion,
        Instant expiresAt,
        Instant recordedAt) {
}
