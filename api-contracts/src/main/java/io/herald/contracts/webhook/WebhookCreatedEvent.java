package io.herald.contracts.webhook;

import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import java.util.List;
import org.axonframework.serialization.Revision;

/** A webhook subscription began (or began again after a delete). Never carries the secret, only its version. */
@Revision("1")
public record WebhookCreatedEvent(
        WebhookSubscriptionId subscriptionId,
        WorkspaceId workspaceId,
        String webhookId,
        String url,
        List<String> events,
        boolean enabled,
        long secretVersion,
        String configuredBy,
        Instant configuredAt) {
}
