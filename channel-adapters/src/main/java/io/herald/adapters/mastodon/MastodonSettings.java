package io.herald.adapters.mastodon;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.contracts.channel.ChannelSettings;

/**
 * A Mastodon account connection's settings.
 *
 * @param instanceUrl the instance's address, without a trailing slash
 * @param accountId   the account the token belongs to, as {@code verify_credentials} names it: where the
 *                    admin gave it, read-back and the owner check use it and the probe says when the
 *                    token belongs to another account; where not, Herald asks the instance (and keeps
 *                    the answer in memory only)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MastodonSettings(String instanceUrl, String accountId) implements ChannelSettings {
}
