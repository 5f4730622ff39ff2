package io.herald.adapters.wordpress;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.adapters.port.ChannelSecrets;

/** A WordPress connection's application password. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record WordPressSecrets(String applicationPassword) implements ChannelSecrets {

    @Override
    public String toString() {
        return "WordPressSecrets[redacted]";
    }
}
