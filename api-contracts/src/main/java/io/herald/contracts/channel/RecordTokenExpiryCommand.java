package io.herald.contracts.channel;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * When the connection's token expires, as the provider said when it was issued (docs/channels.md,
 * {@code accessTokenExpiresAt}); null when it gave none. About one version of the credentials.
 */
public record RecordTokenExpiryCommand(
        @TargetAggregateIdentifier ChannelConnectionId connectionId,
        long credentialVersion,
        Instant expiresAt,
        Instant recordedAt) {
}
