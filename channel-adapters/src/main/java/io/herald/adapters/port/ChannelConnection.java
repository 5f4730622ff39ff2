package io.herald.adapters.port;

import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;

/**
 * Everything an adapter needs to reach one channel connection, secrets included.
 *
 * @param verifyAfterSuccess whether a post that succeeded is read again later, to see it is still there
 */
public record ChannelConnection(
        WorkspaceId workspaceId,
        ChannelId channelId,
        ChannelType type,
        ChannelSettings settings,
        ChannelSecrets secrets,
        boolean autoReattemptAfterNotFound,
        boolean verifyAfterSuccess) {

    /** A connection that does not verify after success. */
    public ChannelConnection(WorkspaceId workspaceId, ChannelId channelId, ChannelType type, ChannelSettings settings,
                             ChannelSecrets secrets, boolean autoReattemptAfterNotFound) {
        this(workspaceId, channelId, type, settings, secrets, autoReattemptAfterNotFound, false);
    }

    /** The settings as the plug-in's own record; a connection of another type is a wiring mistake. */
    public <S extends ChannelSettings> S settings(Class<S> type) {
        return type.cast(settings);
    }

    /** The secrets as the plug-in's own record. */
    public <K extends ChannelSecrets> K secrets(Class<K> type) {
        return type.cast(secrets);
    }

    @Override
    public String toString() {
        return "ChannelConnection[" + workspaceId + "/" + channelId + ", " + type + ", secrets redacted]";
    }
}
