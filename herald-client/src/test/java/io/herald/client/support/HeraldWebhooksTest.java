package io.herald.client.support;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** Deliveries signed as docs/api.md#webhooks says Herald signs them, checked by the helper. */
class HeraldWebhooksTest {

    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString(KEY);
    private static final String BODY = "{\"type\":\"publication.succeeded\",\"data\":{}}";

    private static String sign(byte[] key, String id, long t, String body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return "v1," + Base64.getEncoder().encodeToString(
                mac.doFinal((id + "." + t + "." + body).getBytes(StandardCharsets.UTF_8)));
    }

    private static Map<String, List<String>> headers(String id, long t, String signature) {
        return Map.of("Webhook-Id", List.of(id), "Webhook-Timestamp", List.of(String.valueOf(t)),
                "Webhook-Signature", List.of(signature));
    }

    @Test
    void aDeliveryHeraldSignedPassesWhateverTheHeadersCase() throws Exception {
        long now = Instant.now().getEpochSecond();
        assertThatCode(() -> new HeraldWebhooks(SECRET).verify(BODY,
                headers("msg_1", now, sign(KEY, "msg_1", now, BODY)))).doesNotThrowAnyException();
    }

    @Test
    void duringARotationEitherSignaturePasses() throws Exception {
        long now = Instant.now().getEpochSecond();
        byte[] other = "another key of thirty-two bytes!".getBytes(StandardCharsets.US_ASCII);
        String both = sign(other, "msg_2", now, BODY) + " " + sign(KEY, "msg_2", now, BODY);
        assertThatCode(() -> new HeraldWebhooks(SECRET).verify(BODY, headers("msg_2", now, both)))
                .doesNotThrowAnyException();
    }

    @Test
    void aChangedBodyAnotherKeyAnOldTryOrNoSignatureIsRefused() throws Exception {
        long now = Instant.now().getEpochSecond();
        HeraldWebhooks webhooks = new HeraldWebhooks(SECRET);
        String signature = sign(KEY, "msg_3", now, BODY);
        assertThatThrownBy(() -> webhooks.verify(BODY.replace("succeeded", "failed"), headers("msg_3", now, signature)))
                .isInstanceOf(HeraldWebhooks.InvalidWebhookException.class);
        assertThatThrownBy(() -> webhooks.verify(BODY, headers("msg_4", now, signature)))
                .isInstanceOf(HeraldWebhooks.InvalidWebhookException.class);
        long old = now - 3600;
        assertThatThrownBy(() -> webhooks.verify(BODY, headers("msg_3", old, sign(KEY, "msg_3", old, BODY))))
                .isInstanceOf(HeraldWebhooks.InvalidWebhookException.class);
        assertThatThrownBy(() -> webhooks.verify(BODY, Map.of("webhook-id", List.of("msg_3"))))
                .isInstanceOf(HeraldWebhooks.InvalidWebhookException.class);
    }
}
