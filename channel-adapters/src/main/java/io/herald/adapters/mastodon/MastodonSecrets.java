package io.herald.adapters.mastodon;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.adapters.port.ChannelSecrets;

/** A Mastodon connection's access token (scopes {@code write:statuses}, {@code write:media}, {@code read:statuses}). */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MastodonSecrets(String accessToken) implements ChannelSecrets {

    @Override
    public String toString() {
        return "MastodonSecrets[redacted]";
    }
}
