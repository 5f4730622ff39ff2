package io.herald.adapters.linkedin;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.adapters.port.ChannelSecrets;

/** A LinkedIn connection's OAuth access token. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LinkedInSecrets(String accessToken) implements ChannelSecrets {

    @Override
    public String toString() {
        return "LinkedInSecrets[redacted]";
    }
}
