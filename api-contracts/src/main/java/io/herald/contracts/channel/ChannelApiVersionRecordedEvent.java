package io.herald.contracts.channel;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * The connection speaks another provider API version than before (the configuration changed, or
 * it is the first one recorded).
 *
 * @param sunsetAt        the version's sunset; null where unknown or not announced
 * @param known           whether the channel's plug-in declares the version
 * @param replacedRetired whether it replaces a version the provider retired: the connection's held
 *                        publications resume
 */
@Revision("1")
public record ChannelApiVersionRecordedEvent(
        ChannelConnectionId connectionId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        String version,
        Instant sunsetAt,
        boolean known,
        boolean replacedRetired,
        Instant recordedAt) {
}
