package io.herald.query.audit;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One event as it lies in the store.
 *
 * @param position    the store-wide global index; an export resumes after it
 * @param aggregateId the stream the event belongs to (a publication or channel connection id)
 * @param sequence    the event's place in its stream, from 0
 * @param type        the payload's simple class name, e.g. {@code PublicationAttemptedEvent}
 * @param revision    the payload's {@code @Revision}
 * @param timestamp   when the event was stored, as the store keeps it (ISO-8601)
 * @param payload     the event's fields as stored
 * @param metadata    correlation id, actor, trace id, causation id
 */
@JsonPropertyOrder({"position", "aggregateId", "sequence", "type", "revision", "timestamp", "payload", "metadata"})
public record StoredEvent(
        long position,
        String aggregateId,
        long sequence,
        String type,
        String revision,
        String timestamp,
        JsonNode payload,
        JsonNode metadata) {

    /** The workspace named in the payload; every Herald event carries one. */
    public String workspaceId() {
        JsonNode ws = payload.get("workspaceId");
        return ws == null || ws.isNull() ? null : ws.asText();
    }
}
