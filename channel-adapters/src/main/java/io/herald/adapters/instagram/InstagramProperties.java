package io.herald.adapters.instagram;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.channels.instagram.*}: where the Instagram Graph API is ({@code graph.instagram.com},
 * Instagram Login) and how long to wait for it; how often a container still being processed is asked
 * again ({@code containerPollInterval}). {@code appId} and {@code appSecret} are Herald's Instagram
 * app, for connecting accounts through Instagram Login ({@code authorizeBaseUrl} serves its
 * authorization page, {@code tokenBaseUrl} exchanges the code); without them accounts connect with
 * the {@code PUT} form only.
 */
@ConfigurationProperties("herald.channels.instagram")
public record InstagramProperties(@DefaultValue("https://graph.instagram.com/v23.0") @NotBlank String graphBaseUrl,
                                  @DefaultValue("5s") @NotNull Duration connectTimeout,
                                  @DefaultValue("30s") @NotNull Duration readTimeout,
                                  @DefaultValue("10s") @NotNull Duration containerPollInterval,
                                  @DefaultValue("https://www.instagram.com") @NotBlank String authorizeBaseUrl,
                                  @DefaultValue("https://api.instagram.com") @NotBlank String tokenBaseUrl,
                                  String appId,
                                  String appSecret) {

    @Override
    public String toString() {
        return "InstagramProperties[" + graphBaseUrl + ", app " + appId + ", secret redacted]";
    }
}
