package io.herald.adapters.instagram;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.contracts.channel.ChannelSettings;

/**
 * An Instagram professional account connection's settings.
 *
 * @param igUserId the account's Instagram user id, as the Graph API names it
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record InstagramSettings(String igUserId) implements ChannelSettings {
}
