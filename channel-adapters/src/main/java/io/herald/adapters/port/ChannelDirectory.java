package io.herald.adapters.port;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.util.Optional;

/** Finds a workspace's channel connection with its decrypted credentials. */
public interface ChannelDirectory {

    Optional<ChannelConnection> find(WorkspaceId workspaceId, ChannelId channelId);
}
