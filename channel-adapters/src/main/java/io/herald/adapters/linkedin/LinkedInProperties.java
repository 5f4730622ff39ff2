package io.herald.adapters.linkedin;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.channels.linkedin.*}: where the LinkedIn API is, the {@code LinkedIn-Version} Herald
 * speaks, and how long to wait (connect: could not reach, safe to retry; read: outcome unknown).
 * {@code clientId} and {@code clientSecret} are Herald's LinkedIn app, for connecting members and
 * organizations through Sign In with LinkedIn ({@code authorizationBaseUrl}); {@code oauthScopes}
 * are the scopes the app has (comma-separated).
 */
@ConfigurationProperties("herald.channels.linkedin")
public record LinkedInProperties(@DefaultValue("https://api.linkedin.com") @NotBlank String apiBaseUrl,
                                 @DefaultValue("202611") @NotBlank String version,
                                 @DefaultValue("https://www.linkedin.com/oauth/v2") @NotBlank String authorizationBaseUrl,
                                 String clientId,
                                 String clientSecret,
                                 @DefaultValue("openid,profile,w_member_social") @NotBlank String oauthScopes,
                                 @DefaultValue("5s") @NotNull Duration connectTimeout,
                                 @DefaultValue("30s") @NotNull Duration readTimeout) {

    @Override
    public String toString() {
        return "LinkedInProperties[" + apiBaseUrl + ", client " + clientId + ", secret redacted]";
    }
}
