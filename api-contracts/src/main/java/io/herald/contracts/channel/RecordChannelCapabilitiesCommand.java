package io.herald.contracts.channel;

import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records what a capability probe found for a given version of the connection's credentials. */
public record RecordChannelCapabilitiesCommand(
        @TargetAggregateIdentifier ChannelConnectionId connectionId,
        long credentialVersion,
        Capability publish,
        Capability reconcile,
        RetrySafety retrySafety,
        Instant probedAt) {
}
