package io.herald.adapters.wordpress;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.contracts.channel.ChannelSettings;

/**
 * A WordPress site connection's settings.
 *
 * @param siteUrl  the site, without a trailing slash
 * @param username the user the application password belongs to
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record WordPressSettings(String siteUrl, String username) implements ChannelSettings {
}
