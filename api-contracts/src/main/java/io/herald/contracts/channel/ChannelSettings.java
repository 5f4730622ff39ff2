package io.herald.contracts.channel;

import java.util.List;

/**
 * A connection's settings without its secrets. Which fields apply depends on the channel type.
 *
 * @param pageId          Facebook Page id
 * @param authorUrn       LinkedIn author ({@code urn:li:person:…} or {@code urn:li:organization:…})
 * @param scopes          LinkedIn scopes granted to the token
 * @param siteUrl         WordPress site
 * @param username        WordPress user the application password belongs to
 * @param readTokenStored Facebook: a separate read token is stored
 */
public record ChannelSettings(
        String pageId,
        String authorUrn,
        List<String> scopes,
        String siteUrl,
        String username,
        boolean readTokenStored) {
}
