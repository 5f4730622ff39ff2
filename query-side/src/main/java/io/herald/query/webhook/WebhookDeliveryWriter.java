package io.herald.query.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationView;
import io.herald.contracts.webhook.WebhookEventTypes;
import io.herald.platform.projection.ProjectionRebuilder;
import io.herald.query.publication.PublicationTransitionListener;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.ReplayToken;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.stereotype.Component;

/**
 * Writes the outbox rows of a publication's status change, in the publication view's transaction:
 * the rows commit with the view row and the processor's token, so a crash loses none and a
 * redelivered event (ignored by the projection) adds none. The body is the view as of the event.
 * A rebuild from the history writes nothing: what happened then was reported then.
 */
@Component
public class WebhookDeliveryWriter implements PublicationTransitionListener {

    private final WebhookOutbox outbox;
    private final ObjectMapper json;

    public WebhookDeliveryWriter(WebhookOutbox outbox, ObjectMapper json) {
        this.outbox = outbox;
        this.json = json;
    }

    @Override
    public void transitioned(PublicationView before, PublicationView after, long sequence) {
        List<String> types = typesOf(before, after);
        if (types.isEmpty()) {
            return;
        }
        if (rebuilding()) {
            return;
        }
        EventMessage<?> event = currentEvent();
        List<WebhookOutbox.Subscription> subscriptions = outbox.enabledSubscriptions(after.workspaceId());
        if (subscriptions.isEmpty()) {
            return;
        }
        Instant at = event != null ? event.getTimestamp() : after.updatedAt();
        for (String type : types) {
            String body = body(type, at, after);
            for (WebhookOutbox.Subscription subscription : subscriptions) {
                if (WebhookEventTypes.matches(subscription.events(), type)) {
                    outbox.insert(deliveryId(after, subscription.webhookId(), sequence, type), after.workspaceId(),
                            subscription.webhookId(), after.publicationId().value(), sequence, type, body, at);
                }
            }
        }
    }

    /** The webhook event types a change of the view reports, in the order they are delivered. */
    static List<String> typesOf(PublicationView before, PublicationView after) {
        List<String> types = new ArrayList<>();
        if (after.status() != before.status()) {
            String type = typeOf(after.status());
            if (type != null) {
                types.add(type);
            }
        }
        if (after.vanishedAt() != null && before.vanishedAt() == null) {
            types.add(WebhookEventTypes.VANISHED);
        }
        if (after.needsDecision() && !before.needsDecision()) {
            types.add(WebhookEventTypes.NEEDS_DECISION);
        }
        return types;
    }

    private static String typeOf(PublicationStatus status) {
        return switch (status) {
            case SUCCEEDED -> WebhookEventTypes.SUCCEEDED;
            case FAILED -> WebhookEventTypes.FAILED;
            case OUTCOME_UNKNOWN -> WebhookEventTypes.OUTCOME_UNKNOWN;
            case NOT_EXECUTED -> WebhookEventTypes.NOT_EXECUTED;
            case HELD -> WebhookEventTypes.HELD;
            case ABANDONED -> WebhookEventTypes.ABANDONED;
            case SUPERSEDED -> WebhookEventTypes.SUPERSEDED;
            default -> null;
        };
    }

    /** The same for every try and every node, and for the same event seen twice. */
    static String deliveryId(PublicationView view, String webhookId, long sequence, String type) {
        return DeliveryMessages.id(view.workspaceId(), webhookId, view.publicationId().value(), sequence, type);
    }

    private String body(String type, Instant at, PublicationView view) {
        return DeliveryMessages.body(json, type, at, view, view.publicationId().value());
    }

    /** A projection rebuild (or an Axon replay) folds history that was reported when it happened. */
    static boolean rebuilding() {
        if (!CurrentUnitOfWork.isStarted()) {
            return false;
        }
        UnitOfWork<?> unit = CurrentUnitOfWork.get();
        if (unit.root().resources().containsKey(ProjectionRebuilder.REBUILDING)) {
            return true;
        }
        return unit.getMessage() instanceof TrackedEventMessage<?> tracked && ReplayToken.isReplay(tracked);
    }

    private static EventMessage<?> currentEvent() {
        if (!CurrentUnitOfWork.isStarted()) {
            return null;
        }
        Message<?> message = CurrentUnitOfWork.get().getMessage();
        return message instanceof EventMessage<?> event ? event : null;
    }
}
