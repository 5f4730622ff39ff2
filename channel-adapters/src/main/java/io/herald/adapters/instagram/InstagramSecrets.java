package io.herald.adapters.instagram;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.adapters.port.ChannelSecrets;
import java.time.Instant;

/**
 * An Instagram connection's long-lived access token and, where known, when it expires (then Herald
 * refreshes it before it does).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record InstagramSecrets(String accessToken, Instant accessTokenExpiresAt) implements ChannelSecrets {

    @Override
    public String toString() {
        return "InstagramSecrets[redacted, expires " + accessTokenExpiresAt + "]";
    }
}
