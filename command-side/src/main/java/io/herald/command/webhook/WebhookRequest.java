package io.herald.command.webhook;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;

/** The body of {@code PUT …/webhooks/{webhookId}} (docs/api.md#webhooks); {@code enabled} defaults to true. */
public record WebhookRequest(
        @NotNull @Size(max = 2048) String url,
        @NotEmpty @Size(max = 32) List<String> events,
        Boolean enabled) {
}
