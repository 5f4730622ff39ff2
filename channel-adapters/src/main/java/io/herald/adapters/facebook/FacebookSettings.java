package io.herald.adapters.facebook;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.contracts.channel.ChannelSettings;

/**
 * A Facebook Page connection's settings.
 *
 * @param pageId          the Page posts go to
 * @param readTokenStored a separate token for reading back is stored
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record FacebookSettings(String pageId, boolean readTokenStored) implements ChannelSettings {
}
