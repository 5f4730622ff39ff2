package io.herald.contracts.webhook;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.herald.contracts.id.WorkspaceId;
import java.util.Objects;

/** The Webhook aggregate's id: a webhook id is unique within its workspace only. */
public record WebhookSubscriptionId(String value) {

    public WebhookSubscriptionId {
        Objects.requireNonNull(value, "value");
    }

    public static WebhookSubscriptionId of(WorkspaceId workspace, String webhookId) {
        return new WebhookSubscriptionId("whk_" + workspace.value() + "/" + webhookId);
    }

    @JsonCreator
    public static WebhookSubscriptionId parse(String value) {
        return new WebhookSubscriptionId(value);
    }

    @JsonValue
    @Override
    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return value;
    }
}
