package io.herald.command.channel;

import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Duration;
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
            URI uri;
            try {
                uri = URI.create(publicBaseUrl);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("herald.public-base-url is not a URL: " + e.getMessage());
            }
            if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) || uri.getHost() == null
                    || uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
                throw new IllegalStateException("herald.public-base-url must be an http(s) address without user,"
                        + " query or fragment, e.g. https://herald.example");
            }
            publicBaseUrl = publicBaseUrl.replaceAll("/+$", "");
        }
    }

    /** Where a provider sends the browser back for a channel type, when Herald knows its public address. */
    public URI callback(String type) {
        return URI.create(publicBaseUrl + "/oauth/callback/" + type);
    }

    public boolean hasPublicBaseUrl() {
        return publicBaseUrl != null && !publicBaseUrl.isBlank();
    }
}
