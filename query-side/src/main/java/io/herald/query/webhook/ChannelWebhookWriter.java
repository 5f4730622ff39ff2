package io.herald.query.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.contracts.channel.ChannelConnectionView;
import io.herald.contracts.webhook.WebhookEventTypes;
import io.herald.query.channel.ChannelStatusListener;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.springframework.stereotype.Component;

/**
 * Writes the outbox rows of {@code channel.*} events in the channel view's transaction. The body
 * carries the channel view (settings, capabilities and health, never a secret). Rows of one
 * connection keep its id in the outbox's ordering column, so they go out in event order.
 */
@Component
public class ChannelWebhookWriter implements ChannelStatusListener {

    private final WebhookOutbox outbox;
    private final ObjectMapper json;

    public ChannelWebhookWriter(WebhookOutbox outbox, ObjectMapper json) {
        this.outbox = outbox;
        this.json = json;
    }

    @Override
    public void changed(String type, ChannelConnectionView view, String connectionId, long sequence) {
        if (WebhookDeliveryWriter.rebuilding()) {
            return;
        }
        List<WebhookOutbox.Subscription> subscriptions = outbox.enabledSubscriptions(view.workspaceId());
        Instant at = eventTime(view);
        String body = body(type, at, view);
        for (WebhookOutbox.Subscription subscription : subscriptions) {
            if (WebhookEventTypes.matches(subscription.events(), type)) {
                outbox.insert(deliveryId(view, subscription.webhookId(), connectionId, sequence, type),
                        view.workspaceId(), subscription.webhookId(), connectionId, sequence, type, body, at);
            }
        }
    }

    /** The same for every try, node and redelivery of the event. */
    static String deliveryId(ChannelConnectionView view, String webhookId, String connectionId, long sequence,
                             String type) {
        return DeliveryMessages.id(view.workspaceId(), webhookId, connectionId, sequence, type);
    }

    private String body(String type, Instant at, ChannelConnectionView view) {
        return DeliveryMessages.body(json, type, at, view, "channel " + view.channelId());
    }

    private static Instant eventTime(ChannelConnectionView view) {
        if (CurrentUnitOfWork.isStarted()) {
            Message<?> message = CurrentUnitOfWork.get().getMessage();
            if (message instanceof EventMessage<?> event) {
                return event.getTimestamp();
            }
        }
        return view.updatedAt();
    }
}
