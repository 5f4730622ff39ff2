package io.herald.contracts.channel;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * What a probe found for one version of a connection's credentials. Revision 2 adds the
 * connection's retry safety, which its channel plug-in derives from what the credentials allow.
 */
@Revision("2")
public record ChannelCapabilitiesProbedEvent(
        ChannelConnectionId connectionId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        long credentialVersion,
        Capability publish,
        Capability reconcile,
        RetrySafety retrySafety,
        Instant probedAt) {
}
