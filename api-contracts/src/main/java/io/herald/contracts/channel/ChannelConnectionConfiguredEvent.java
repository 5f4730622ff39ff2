package io.herald.contracts.channel;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * A connection was created or changed. Secrets are referenced by version, never carried. Revision 2:
 * the settings are the channel plug-in's own record, tagged with the channel type (revision 1 held
 * every provider's fields in one record, untagged). Revision 3: {@code verifyAfterSuccess}, whether
 * the connection's posts are read again after success; an event stored before it says false.
 */
@Revision("3")
public record ChannelConnectionConfiguredEvent(
        ChannelConnectionId connectionId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        ChannelType type,
        ChannelSettings settings,
        long credentialVersion,
        boolean autoReattemptAfterNotFound,
        String configuredBy,
        Instant configuredAt,
        boolean verifyAfterSuccess) {

    /** A connection that does not verify after success. */
    public ChannelConnectionConfiguredEvent(ChannelConnectionId connectionId, WorkspaceId workspaceId,
                                            ChannelId channelId, ChannelType type, ChannelSettings settings,
                                            long credentialVersion, boolean autoReattemptAfterNotFound,
                                            String configuredBy, Instant configuredAt) {
        this(connectionId, workspaceId, channelId, type, settings, credentialVersion, autoReattemptAfterNotFound,
                configuredBy, configuredAt, false);
    }
}
