package io.herald.contracts.channel;

/**
 * Where a connection's provider API version stands (docs/architecture.md#connection-health).
 * {@code CURRENT}: served, with no sunset within the warning window (or none announced);
 * {@code EXPIRING}: the sunset is within {@code herald.channels.version-warning};
 * {@code RETIRED}: the provider answered that it no longer serves it; {@code UNKNOWN}: the channel's
 * plug-in does not know the configured version, so its sunset is unknown.
 */
public enum ApiVersionState {
    CURRENT, EXPIRING, RETIRED, UNKNOWN
}
