package io.herald.command.webhook;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.webhook.ConfigureWebhookCommand;
import io.herald.contracts.webhook.DeleteWebhookCommand;
import io.herald.contracts.webhook.RotateWebhookSecretCommand;
import io.herald.contracts.webhook.WebhookCreatedEvent;
import io.herald.contracts.webhook.WebhookDeletedEvent;
import io.herald.contracts.webhook.WebhookSecretRotatedEvent;
import io.herald.contracts.webhook.WebhookSubscriptionId;
import io.herald.contracts.webhook.WebhookUpdatedEvent;
import java.util.List;
import java.util.Objects;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * A workspace's subscription to what happens (docs/api.md#webhooks): its URL, event types and
 * whether it is on, so an auditor can replay every change. The secret lives encrypted in the
 * command side's table; the history names only its version.
 */
@Aggregate
public class Webhook {

    @AggregateIdentifier
    private WebhookSubscriptionId subscriptionId;
    private WorkspaceId workspaceId;
    private String webhookId;
    private boolean active;
    private String url;
    private List<String> events;
    private boolean enabled;
    private long secretVersion;

    protected Webhook() {
        // required by Axon
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    public void handle(ConfigureWebhookCommand command) {
        if (!active) {
            apply(new WebhookCreatedEvent(command.subscriptionId(), command.workspaceId(), command.webhookId(),
                    command.url(), List.copyOf(command.events()), command.enabled(), command.secretVersion(),
                    command.configuredBy(), command.configuredAt()));
            return;
        }
        if (Objects.equals(url, command.url()) && Objects.equals(events, command.events())
                && enabled == command.enabled()) {
            return;
        }
        apply(new WebhookUpdatedEvent(subscriptionId, workspaceId, webhookId, command.url(),
                List.copyOf(command.events()), command.enabled(), command.configuredBy(), command.configuredAt()));
    }

    /** Rotating the same version twice (a repeated command) records one rotation. */
    @CommandHandler
    public void handle(RotateWebhookSecretCommand command) {
        if (!active || command.secretVersion() <= secretVersion) {
            return;
        }
        apply(new WebhookSecretRotatedEvent(subscriptionId, workspaceId, webhookId, command.secretVersion(),
                command.rotatedBy(), command.rotatedAt()));
    }

    @CommandHandler
    public void handle(DeleteWebhookCommand command) {
        if (!active) {
            return;
        }
        apply(new WebhookDeletedEvent(subscriptionId, workspaceId, webhookId, command.deletedBy(),
                command.deletedAt()));
    }

    @EventSourcingHandler
    void on(WebhookCreatedEvent event) {
        subscriptionId = event.subscriptionId();
        workspaceId = event.workspaceId();
        webhookId = event.webhookId();
        active = true;
        url = event.url();
        events = event.events();
        enabled = event.enabled();
        secretVersion = event.secretVersion();
    }

    @EventSourcingHandler
    void on(WebhookUpdatedEvent event) {
        url = event.url();
        events = event.events();
        enabled = event.enabled();
    }

    @EventSourcingHandler
    void on(WebhookSecretRotatedEvent event) {
        secretVersion = event.secretVersion();
    }

    @EventSourcingHandler
    void on(WebhookDeletedEvent event) {
        active = false;
    }
}
