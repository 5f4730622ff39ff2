package io.herald.contracts.channel;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The token expiring at {@code expiresAt} is within the warning window; warned once per expiry. */
public record WarnTokenExpiringCommand(
        @TargetAggregateIdentifier ChannelConnectionId connectionId,
        Instant expiresAt,
        Instant warnedAt) {
}
