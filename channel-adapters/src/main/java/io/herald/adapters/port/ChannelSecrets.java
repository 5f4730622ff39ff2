package io.herald.adapters.port;

/**
 * A connection's decrypted credentials, held only for the duration of a call. {@link #toString()}
 * never shows them, so an accidental log line leaks nothing.
 *
 * @param pageAccessToken     Facebook Page access token (publishing)
 * @param readAccessToken     Facebook token used for read-back, when different
 * @param accessToken         LinkedIn OAuth access token
 * @param applicationPassword WordPress application password
 */
public record ChannelSecrets(
        String pageAccessToken,
        String readAccessToken,
        String accessToken,
        String applicationPassword) {

    public static ChannelSecrets none() {
        return new ChannelSecrets(null, null, null, null);
    }

    @Override
    public String toString() {
        return "ChannelSecrets[redacted]";
    }
}
