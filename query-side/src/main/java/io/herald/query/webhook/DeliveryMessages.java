package io.herald.query.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.contracts.id.WorkspaceId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/** The id and body of a delivery, the same for publication and channel events. */
final class DeliveryMessages {

    private DeliveryMessages() {
    }

    /**
     * The same for every try and every node, and for the same event seen twice: derived from the
     * webhook, the subject's stream position and the type (docs/api.md#webhooks: {@code webhook-id: msg_…}).
     */
    static String id(WorkspaceId workspace, String webhookId, String subject, long sequence, String type) {
        String identity = workspace.value() + "\n" + webhookId + "\n" + subject + "\n" + sequence + "\n" + type;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return "msg_" + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }

    /** {@code {"type", "timestamp", "data"}}, the Standard Webhooks body of docs/api.md#webhooks. */
    static String body(ObjectMapper json, String type, Instant at, Object data, String subject) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type);
        body.put("timestamp", at);
        body.put("data", data);
        try {
            return json.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the webhook body of " + subject, e);
        }
    }
}
