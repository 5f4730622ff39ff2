package io.herald.contracts.channel;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

@Revision("1")
public record ChannelCapabilitiesProbedEvent(
        ChannelConnectionId connectionId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        long credentialVersion,
        Capability publish,
        Capability reconcile,
        Instant probedAt) {
}
