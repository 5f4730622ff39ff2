package io.herald.adapters.bluesky;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.contracts.channel.ChannelSettings;

/**
 * A Bluesky account connection's settings. The account's DID is not stored: the session Herald
 * makes with the app password names it, so a handle moved to another account is never written to
 * under the old one's name.
 *
 * @param handle the account's handle (or its DID), as the app password's owner signs in with it
 * @param pdsUrl the account's PDS, without a trailing slash
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BlueskySettings(String handle, String pdsUrl) implements ChannelSettings {
}
