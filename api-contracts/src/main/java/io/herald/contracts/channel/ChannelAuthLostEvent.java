package io.herald.contracts.channel;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/** The connection turned NEEDS_REAUTH: its credentials no longer work, with the provider's reason. */
@Revision("1")
public record ChannelAuthLostEvent(
        ChannelConnectionId connectionId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        long credentialVersion,
        String providerCode,
        String reason,
        Instant lostAt) {
}
