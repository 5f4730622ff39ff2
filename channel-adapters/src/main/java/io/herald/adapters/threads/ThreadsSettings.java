package io.herald.adapters.threads;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.contracts.channel.ChannelSettings;

/**
 * A Threads profile connection's settings.
 *
 * @param threadsUserId the Threads user id the token belongs to, as {@code GET /me} names it
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ThreadsSettings(String threadsUserId) implements ChannelSettings {
}
