package io.herald.contracts.webhook;

import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates or changes a webhook subscription. Carries no secret: it was stored encrypted beforehand. */
public record ConfigureWebhookCommand(
        @TargetAggregateIdentifier WebhookSubscriptionId subscriptionId,
        WorkspaceId workspaceId,
        String webhookId,
        String url,
        List<String> events,
        boolean enabled,
        long secretVersion,
        String configuredBy,
        Instant configuredAt) {
}
