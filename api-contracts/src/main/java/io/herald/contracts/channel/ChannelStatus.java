package io.herald.contracts.channel;

/** Whether a connection's credentials work (API.md, "Channel connections"). */
public enum ChannelStatus {
    ACTIVE,
    NEEDS_REAUTH
}
