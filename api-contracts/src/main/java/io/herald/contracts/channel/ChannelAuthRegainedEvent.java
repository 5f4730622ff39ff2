package io.herald.contracts.channel;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/** A probe passed with the connection's credentials after it needed re-authorisation: ACTIVE again. */
@Revision("1")
public record ChannelAuthRegainedEvent(
        ChannelConnectionId connectionId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        long credentialVersion,
        Instant regainedAt) {
}
