package io.herald.adapters.bluesky;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.adapters.port.ChannelSecrets;

/** A Bluesky connection's app password; sessions made with it live in memory only. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BlueskySecrets(String appPassword) implements ChannelSecrets {

    @Override
    public String toString() {
        return "BlueskySecrets[redacted]";
    }
}
