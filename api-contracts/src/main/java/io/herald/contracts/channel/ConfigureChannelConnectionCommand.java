package io.herald.contracts.channel;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Creates or changes a channel connection. Carries no secret: the credentials were stored
 * encrypted beforehand, and {@code credentialVersion} names that version.
 */
public record ConfigureChannelConnectionCommand(
        @TargetAggregateIdentifier ChannelConnectionId connectionId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        ChannelType type,
        ChannelSettings settings,
        long credentialVersion,
        boolean autoReattemptAfterNotFound,
        String configuredBy,
        Instant configuredAt,
        boolean verifyAfterSuccess) {
}
