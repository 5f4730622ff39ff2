package io.herald.adapters.port;

import io.herald.contracts.channel.Capability;

/** What a connection's credentials allow, each with a reason when not. */
public record CapabilityReport(Capability publish, Capability reconcile) {
}
