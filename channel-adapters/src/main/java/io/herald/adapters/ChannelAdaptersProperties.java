package io.herald.adapters;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.channels.*}: where each provider lives and how long to wait for it. The connect
 * timeout bounds "could not reach the provider" (safe to retry); the read timeout bounds the wait
 * for an answer to a request that left (outcome unknown when it passes).
 */
@ConfigurationProperties("herald.channels")
@Validated
public record ChannelAdaptersProperties(@DefaultValue @NotNull @Valid Facebook facebook,
                                        @DefaultValue @NotNull @Valid LinkedIn linkedin,
                                        @DefaultValue @NotNull @Valid WordPress wordpress,
                                        @DefaultValue @NotNull @Valid Bluesky bluesky,
                                        @DefaultValue @NotNull @Valid Mastodon mastodon) {

    /** The defaults, as binding an empty configuration gives them. */
    public static ChannelAdaptersProperties defaults() {
        return new Binder(new MapConfigurationPropertySource())
                .bindOrCreate("herald.channels", ChannelAdaptersProperties.class);
    }

    /**
     * Facebook; {@code appId} and {@code appSecret} are Herald's Meta app, for connecting Pages
     * through Facebook Login ({@code dialogBaseUrl} serves its consent dialog); without them Pages
     * connect with the {@code PUT} form only.
     */
    public record Facebook(@DefaultValue("https://graph.facebook.com/v25.0") @NotBlank String graphBaseUrl,
                           @DefaultValue("https://www.facebook.com/v25.0") @NotBlank String dialogBaseUrl,
                           String appId,
                           String appSecret,
                           @DefaultValue("5s") @NotNull Duration connectTimeout,
                           @DefaultValue("30s") @NotNull Duration readTimeout) {

        @Override
        public String toString() {
            return "Facebook[" + graphBaseUrl + ", app " + appId + ", secret redacted]";
        }
    }

    /**
     * LinkedIn; {@code clientId} and {@code clientSecret} are Herald's LinkedIn app, for connecting
     * members and organizations through Sign In with LinkedIn ({@code authorizationBaseUrl});
     * {@code oauthScopes} are the scopes the app has (comma-separated).
     */
    public record LinkedIn(@DefaultValue("https://api.linkedin.com") @NotBlank String apiBaseUrl,
                           @DefaultValue("202611") @NotBlank String version,
                           @DefaultValue("https://www.linkedin.com/oauth/v2") @NotBlank String authorizationBaseUrl,
                           String clientId,
                           String clientSecret,
                           @DefaultValue("openid,profile,w_member_social") @NotBlank String oauthScopes,
                           @DefaultValue("5s") @NotNull Duration connectTimeout,
                           @DefaultValue("30s") @NotNull Duration readTimeout) {

        @Override
        public String toString() {
            return "LinkedIn[" + apiBaseUrl + ", client " + clientId + ", secret redacted]";
        }
    }

    public record WordPress(@DefaultValue("5s") @NotNull Duration connectTimeout,
                            @DefaultValue("30s") @NotNull Duration readTimeout) {
    }

    /** Bluesky: each connection names its PDS ({@code pdsUrl}); only the timeouts are Herald's. */
    public record Bluesky(@DefaultValue("5s") @NotNull Duration connectTimeout,
                          @DefaultValue("30s") @NotNull Duration readTimeout) {
    }

    /**
     * Mastodon: each connection names its instance ({@code instanceUrl}). {@code idempotencyWindow}:
     * how long after it was sent an unknown create may be sent again with its {@code Idempotency-Key}
     * (servers keep a key for about an hour).
     */
    public record Mastodon(@DefaultValue("5s") @NotNull Duration connectTimeout,
                           @DefaultValue("30s") @NotNull Duration readTimeout,
                           @DefaultValue("50m") @NotNull Duration idempotencyWindow) {
    }
}
