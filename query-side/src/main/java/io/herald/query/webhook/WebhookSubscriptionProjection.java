package io.herald.query.webhook;

import io.herald.contracts.webhook.WebhookCreatedEvent;
import io.herald.contracts.webhook.WebhookDeletedEvent;
import io.herald.contracts.webhook.WebhookUpdatedEvent;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.stereotype.Component;

/**
 * Which webhooks want which event types. A subscribing processor: the row commits with the
 * webhook's own events, so every publication event stored after a subscription's {@code PUT}
 * answered finds it, whichever segment of the publication view applies that event (a tracking
 * processor of its own, or a place in the view's group, could lag behind and miss deliveries).
 * It is not rebuilt from history; a rebuild of the publication view leaves it as it is.
 */
@Component
@ProcessingGroup(WebhookSubscriptionProjection.PROCESSING_GROUP)
public class WebhookSubscriptionProjection {

    public static final String PROCESSING_GROUP = "webhook-subscriptions";

    private final WebhookOutbox outbox;

    public WebhookSubscriptionProjection(WebhookOutbox outbox) {
        this.outbox = outbox;
    }

    @EventHandler
    public void on(WebhookCreatedEvent event) {
        outbox.subscribe(event.workspaceId(), event.webhookId(), event.events(), event.enabled());
    }

    @EventHandler
    public void on(WebhookUpdatedEvent event) {
        outbox.subscribe(event.workspaceId(), event.webhookId(), event.events(), event.enabled());
    }

    @EventHandler
    public void on(WebhookDeletedEvent event) {
        outbox.unsubscribe(event.workspaceId(), event.webhookId());
    }
}
