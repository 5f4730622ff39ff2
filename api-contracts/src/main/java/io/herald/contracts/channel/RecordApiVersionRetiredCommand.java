package io.herald.contracts.channel;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A provider answered that it no longer serves the API version Herald sent (LinkedIn's 426
 * {@code NONEXISTENT_VERSION}).
 *
 * @param reason what fixes it, naming the configuration property; never a secret
 */
public record RecordApiVersionRetiredCommand(
        @TargetAggregateIdentifier ChannelConnectionId connectionId,
        String version,
        String providerCode,
        String reason,
        Instant detectedAt) {
}
