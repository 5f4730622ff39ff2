package io.herald.contracts.webhook;

import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Ends a webhook subscription. */
public record DeleteWebhookCommand(
        @TargetAggregateIdentifier WebhookSubscriptionId subscriptionId,
        WorkspaceId workspaceId,
        String webhookId,
        String deletedBy,
        Instant deletedAt) {
}
