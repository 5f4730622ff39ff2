package io.herald.adapters.threads;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.channels.threads.*}: the Threads API's address ({@code base-url}, with its version),
 * the HTTP timeouts, how long the container step waits for each carousel item and a reply waits
 * for its container to finish, polling in memory ({@code container-wait}), when a post's container
 * still in progress is asked again by a timer ({@code container-poll-interval}), and the connection's budget: the attempts
 * Herald starts on one connection in each window ({@code quota-calls} in {@code quota-window};
 * Threads allows 250 posts a profile in 24 hours, and a post takes two attempts). {@code appId} and
 * {@code appSecret} are Herald's Threads app, for connecting profiles through Threads' OAuth
 * ({@code authorizeBaseUrl} serves its authorization page); without them profiles connect with the
 * {@code PUT} form only.
 */
@ConfigurationProperties("herald.channels.threads")
public record ThreadsProperties(@DefaultValue("https://graph.threads.net/v1.0") @NotNull String baseUrl,
                                @DefaultValue("5s") @NotNull Duration connectTimeout,
                                @DefaultValue("30s") @NotNull Duration readTimeout,
                                @DefaultValue("10s") @NotNull Duration containerWait,
                                @DefaultValue("1s") @NotNull Duration containerPollInterval,
                                @DefaultValue("500") int quotaCalls,
                                @DefaultValue("24h") @NotNull Duration quotaWindow,
                                @DefaultValue("https://threads.net") @NotBlank String authorizeBaseUrl,
                                String appId,
                                String appSecret) {

    public ThreadsProperties {
        baseUrl = baseUrl.replaceAll("/+$", "");
    }

    @Override
    public String toString() {
        return "ThreadsProperties[" + baseUrl + ", app " + appId + ", secret redacted]";
    }
}
