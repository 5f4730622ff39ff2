package io.herald.contracts.channel;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * The provider answered that it no longer serves the connection's API version: every publication
 * due on the connection is HELD before any call until another version is configured.
 *
 * @param providerCode the provider's word for it, e.g. {@code NONEXISTENT_VERSION}
 * @param reason       what fixes it (the publications' {@code heldReason})
 */
@Revision("1")
public record ChannelApiVersionRetiredEvent(
        ChannelConnectionId connectionId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        String version,
        String providerCode,
        String reason,
        Instant retiredAt) {
}
