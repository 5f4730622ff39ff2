package io.herald.contracts.webhook;

import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/** A webhook subscription ended. */
@Revision("1")
public record WebhookDeletedEvent(
        WebhookSubscriptionId subscriptionId,
        WorkspaceId workspaceId,
        String webhookId,
        String deletedBy,
        Instant deletedAt) {
}
