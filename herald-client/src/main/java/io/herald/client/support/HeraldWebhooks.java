package io.herald.client.support;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Checks that a webhook delivery came from Herald: the Standard Webhooks signature over
 * {@code webhook-id.webhook-timestamp.body} with the webhook's {@code whsec_} secret, the timestamp
 * within five minutes. During a rotation a delivery carries two signatures; either one passes.
 */
public final class HeraldWebhooks {

    private final Webhook webhook;

    public HeraldWebhooks(String secret) {
        this.webhook = new Webhook(Objects.requireNonNull(secret, "secret"));
    }

    /**
     * Verifies a delivery; the body must be the raw text received, before any parsing.
     *
     * @param headers the request's headers, names in any case
     * @throws InvalidWebhookException when the delivery is not Herald's, or too old
     */
    public void verify(String body, Map<String, List<String>> headers) {
        Map<String, List<String>> named = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        named.putAll(headers);
        Map<String, List<String>> standard = new HashMap<>();
        for (String name : List.of("webhook-id", "webhook-timestamp", "webhook-signature")) {
            List<String> values = named.get(name);
            if (values == null || values.isEmpty()) {
                throw new InvalidWebhookException("the delivery has no " + name + " header");
            }
            standard.put(name, values);
        }
        try {
            webhook.verify(body, standard);
        } catch (WebhookVerificationException e) {
            throw new InvalidWebhookException(e.getMessage());
        }
    }

    /** A delivery that did not pass: answer it with a 4xx and do not act on it. */
    public static final class InvalidWebhookException extends RuntimeException {
        public InvalidWebhookException(String message) {
            super(message);
        }
    }
}
