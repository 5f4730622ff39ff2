package io.herald.command.webhook;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.webhooks.max-subscriptions}: the most webhook subscriptions a workspace may have
 * (20 by default). Every subscription is a destination the senders of every node try, so one
 * workspace with hundreds of them would take the senders' time from every other workspace. The
 * rest of {@code herald.webhooks.*} configures the senders, where they run.
 */
@ConfigurationProperties("herald.webhooks")
public record WebhookLimits(@DefaultValue("20") int maxSubscriptions) {

    public WebhookLimits {
        if (maxSubscriptions < 1) {
            throw new IllegalArgumentException("herald.webhooks.max-subscriptions must be positive, was "
                    + maxSubscriptions);
        }
    }
}
