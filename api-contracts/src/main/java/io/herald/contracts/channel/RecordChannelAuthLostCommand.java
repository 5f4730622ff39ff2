package io.herald.contracts.channel;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A provider answered that the connection's credentials are expired or revoked (docs/architecture.md#connection-health). About one version of the credentials: newer ones are not judged by it.
 *
 * @param providerCode the provider's own word for it (e.g. {@code 190/463}, {@code EXPIRED_ACCESS_TOKEN})
 * @param reason       what the provider said and what fixes it, never a secret
 */
public record RecordChannelAuthLostCommand(
        @TargetAggregateIdentifier ChannelConnectionId connectionId,
        long credentialVersion,
        String providerCode,
        String reason,
        Instant detectedAt) {
}
