package io.herald.command.channel;

import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Connecting channels through their providers: {@code herald.public-base-url}, Herald's public
 * address (the providers send the admin's browser back to {@code {it}/oauth/callback/{type}}, so it
 * must be the address registered with each provider app), and {@code herald.channels.connect-ttl},
 * how long a started connect may take (10 minutes).
 */
@ConfigurationProperties("herald")
@Validated
public record ConnectProperties(String publicBaseUrl, @DefaultValue @NotNull Channels channels) {

    /** {@code herald.channels.connect-ttl}. */
    public record Channels(@DefaultValue("10m") @NotNull Duration connectTtl) {
    }

    public ConnectProperties {
        if (publicBaseUrl != null && !publicBaseUrl.isBlank()) {
            publicBaseUrl = usable(publicBaseUrl.strip());
        }
    }

    /**
     * The public address, without trailing slashes, when every provider can send the browser back
     * under it; otherwise the start stops here, naming what is wrong. Providers accept only an
     * {@code https} redirect URI, or plain {@code http} to the admin's own machine, without user,
     * query or fragment (the callback address is derived from it, so it cannot differ from the one
     * registered with the provider apps).
     */
    private static String usable(String publicBaseUrl) {
        URI uri;
        try {
            uri = new URI(publicBaseUrl);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("herald.public-base-url is not a URL: " + e.getMessage());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!("https".equals(scheme) || "http".equals(scheme)) || uri.getHost() == null || uri.isOpaque()
                || uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw new IllegalStateException("herald.public-base-url must be an http(s) address without user,"
                    + " query or fragment, e.g. https://herald.example");
        }
        if ("http".equals(scheme) && !loopback(uri.getHost())) {
            throw new IllegalStateException("herald.public-base-url must be an https address: providers send the"
                    + " browser back over plain http only to localhost (it is " + publicBaseUrl + ")");
        }
        return publicBaseUrl.replaceAll("/+$", "");
    }

    private static boolean loopback(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return "localhost".equalsIgnoreCase(bare) || bare.matches("127(\\.\\d{1,3}){3}") || "::1".equals(bare);
    }

    /** Where a provider sends the browser back for a channel type, when Herald knows its public address. */
    public URI callback(String type) {
        return URI.create(publicBaseUrl + "/oauth/callback/" + type);
    }

    public boolean hasPublicBaseUrl() {
        return publicBaseUrl != null && !publicBaseUrl.isBlank();
    }
}
