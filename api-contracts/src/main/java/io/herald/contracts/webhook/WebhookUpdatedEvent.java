package io.herald.contracts.webhook;

import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import java.util.List;
import org.axonframework.serialization.Revision;

/** A webhook's URL, event types or enabled flag changed; the secret stayed. */
@Revision("1")
public record WebhookUpdatedEvent(
        WebhookSubscriptionId subscriptionId,
        WorkspaceId workspaceId,
        String webhookId,
        String url,
        List<String> events,
        boolean enabled,
        String configuredBy,
        Instant configuredAt) {
}
