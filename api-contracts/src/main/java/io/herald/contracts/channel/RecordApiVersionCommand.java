package io.herald.contracts.channel;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The provider API version this node is configured to send for the connection, as its channel's
 * plug-in knows it: recorded when it differs from the last one, and warned of once per version
 * when {@code recordedAt} is at or after {@code warnFrom}.
 *
 * @param sunsetAt the version's sunset; null where unknown or not announced
 * @param known    whether the plug-in declares the version at all
 * @param warnFrom from when the connection warns of the sunset; null when there is nothing to warn of
 */
public record RecordApiVersionCommand(
        @TargetAggregateIdentifier ChannelConnectionId connectionId,
        String version,
        Instant sunsetAt,
        boolean known,
        Instant warnFrom,
        Instant recordedAt) {
}
