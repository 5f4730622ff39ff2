package io.herald.query.webhook;

import io.herald.contracts.webhook.WebhookCreatedEvent;
import io.herald.contracts.webhook.WebhookDeletedEvent;
import io.herald.contracts.webhook.WebhookUpdatedEvent;
import io.herald.query.publication.PublicationViewProjection;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.springframework.stereotype.Component;

/**
 * Which webhooks want which event types, as of the events processed so far. In the publication
 * view's processing group, so {@link WebhookDeliveryWriter} reads it in the processor (and
 * transaction) that applies the publication events, and a rebuild of the publication view
 * restores it too.
 */
@Component
@ProcessingGroup(PublicationViewProjection.PROCESSING_GROUP)
public class WebhookSubscriptionProjection {

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

    /** Before a rebuild; the outbox itself is kept: what was delivered stays in the log. */
    @ResetHandler
    public void reset() {
        outbox.clearSubscriptions();
    }
}
