package io.herald.contracts.channel;

/** Whether a connection's credentials work (docs/api.md#channel-connections). */
public enum ChannelStatus {
    ACTIVE,
    NEEDS_REAUTH
}
