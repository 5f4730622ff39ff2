package io.herald.adapters.port;

import io.herald.contracts.channel.Capability;

/**
 * What a connection's credentials allow, each with a reason when not.
 *
 * @param authLost non-null when the provider refused the credentials as expired or revoked: its reason
 */
public record CapabilityReport(Capability publish, Capability reconcile, String authLost) {

    public CapabilityReport(Capability publish, Capability reconcile) {
        this(publish, reconcile, null);
    }
}
