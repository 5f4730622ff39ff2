package io.herald.adapters.mastodon;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.channels.mastodon.*}: each connection names its instance ({@code instanceUrl}).
 * {@code idempotencyWindow}: how long after it was sent an unknown create may be sent again with its
 * {@code Idempotency-Key} (servers keep a key for about an hour). {@code mediaProcessingWait}: how
 * long an image the instance answered with 202 (still processing) is checked again, at growing
 * intervals, before the upload step fails as retryable.
 */
@ConfigurationProperties("herald.channels.mastodon")
public record MastodonProperties(@DefaultValue("5s") @NotNull Duration connectTimeout,
                                 @DefaultValue("30s") @NotNull Duration readTimeout,
                                 @DefaultValue("50m") @NotNull Duration idempotencyWindow,
                                 @DefaultValue("30s") @NotNull Duration mediaProcessingWait) {
}
