package io.herald.adapters.threads;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.adapters.port.ChannelSecrets;
import java.time.Instant;

/**
 * A Threads connection's long-lived access token ({@code threads_basic}, {@code
 * threads_content_publish}, {@code threads_manage_replies}, {@code threads_delete}) and, where
 * known, when it expires (then Herald refreshes it before it does).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ThreadsSecrets(String accessToken, Instant accessTokenExpiresAt) implements ChannelSecrets {

    @Override
    public String toString() {
        return "ThreadsSecrets[redacted, expires " + accessTokenExpiresAt + "]";
    }
}
