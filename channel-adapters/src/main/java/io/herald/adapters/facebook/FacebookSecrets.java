package io.herald.adapters.facebook;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.adapters.port.ChannelSecrets;

/**
 * A Facebook Page connection's credentials.
 *
 * @param pageAccessToken the Page access token (publishing)
 * @param readAccessToken the token used for read-back, when different
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record FacebookSecrets(String pageAccessToken, String readAccessToken) implements ChannelSecrets {

    @Override
    public String toString() {
        return "FacebookSecrets[redacted]";
    }
}
