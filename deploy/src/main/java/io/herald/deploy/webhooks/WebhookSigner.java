package io.herald.deploy.webhooks;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookSigningException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code webhook-signature} header of one try, made with the Standard Webhooks
 * specification's own library: {@code v1,<base64 HMAC-SHA256(key, id.timestamp.body)>} per
 * secret, newest first, space-separated (docs/api.md#webhooks: both secrets sign for 24 h after a rotation).
 */
final class WebhookSigner {

    private WebhookSigner() {
    }

    static String signature(List<String> secrets, String deliveryId, long timestampSeconds, String body) {
        return secrets.stream().map(secret -> sign(secret, deliveryId, timestampSeconds, body))
                .collect(Collectors.joining(" "));
    }

    static String sign(String secret, String deliveryId, long timestampSeconds, String body) {
        try {
            return new Webhook(secret).sign(deliveryId, timestampSeconds, body);
        } catch (WebhookSigningException | IllegalArgumentException e) {
            // never the secret or the library's text about it
            throw new IllegalStateException("the webhook secret cannot sign");
        }
    }
}
