package io.herald.contracts.webhook;

import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Records that a webhook's secret was replaced (the new one stored encrypted beforehand). */
public record RotateWebhookSecretCommand(
        @TargetAggregateIdentifier WebhookSubscriptionId subscriptionId,
        WorkspaceId workspaceId,
        String webhookId,
        long secretVersion,
        String rotatedBy,
        Instant rotatedAt) {
}
