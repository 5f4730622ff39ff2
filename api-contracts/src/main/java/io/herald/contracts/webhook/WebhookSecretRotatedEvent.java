package io.herald.contracts.webhook;

import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/** A webhook's secret was replaced; for 24 h its tries carry the old signature too. The secret itself is never in the history. */
@Revision("1")
public record WebhookSecretRotatedEvent(
        WebhookSubscriptionId subscriptionId,
        WorkspaceId workspaceId,
        String webhookId,
        long secretVersion,
        String rotatedBy,
        Instant rotatedAt) {
}
