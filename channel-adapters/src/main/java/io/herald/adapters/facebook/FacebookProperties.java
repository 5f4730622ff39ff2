package io.herald.adapters.facebook;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.channels.facebook.*}: where the Graph API is and how long to wait for it. The
 * connect timeout bounds "could not reach the provider" (safe to retry); the read timeout bounds the
 * wait for an answer to a request that left (outcome unknown when it passes). {@code appId} and
 * {@code appSecret} are Herald's Meta app, for connecting Pages through Facebook Login
 * ({@code dialogBaseUrl} serves its consent dialog); without them Pages connect with the {@code PUT}
 * form only. {@code budgetCalls} calls in each {@code budgetWindow} is the budget a connection
 * starts attempts within (0: none counted; the Graph API allows an app about 200 calls an hour per
 * user); the answers' usage headers shrink it when other apps share it, and hold the connection
 * when the Page's budget is spent either way.
 */
@ConfigurationProperties("herald.channels.facebook")
public record FacebookProperties(@DefaultValue("https://graph.facebook.com/v25.0") @NotBlank String graphBaseUrl,
                                 @DefaultValue("https://www.facebook.com/v25.0") @NotBlank String dialogBaseUrl,
                                 String appId,
                                 String appSecret,
                                 @DefaultValue("5s") @NotNull Duration connectTimeout,
                                 @DefaultValue("30s") @NotNull Duration readTimeout,
                                 @DefaultValue("0") @jakarta.validation.constraints.Min(0) int budgetCalls,
                                 @DefaultValue("1h") @NotNull Duration budgetWindow) {

    /** The connection's budget: its calls per window, kept from the usage headers; null when none is set. */
    public io.herald.adapters.port.Quota budget() {
        return budgetCalls < 1 ? null
                : new io.herald.adapters.port.Quota("usage", budgetCalls, budgetWindow, "usage-headers");
    }

    @Override
    public String toString() {
        return "FacebookProperties[" + graphBaseUrl + ", app " + appId + ", secret redacted]";
    }
}
