package io.herald.platform.projection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.axonframework.serialization.SimpleSerializedType;
import org.axonframework.serialization.upcasting.event.IntermediateEventRepresentation;
import org.axonframework.serialization.upcasting.event.SingleEventUpcaster;

/**
 * Reads one stored revision of an event as the next by editing its JSON payload; nothing stored is
 * rewritten, and the type stays the same.
 */
public abstract class JsonPayloadUpcaster extends SingleEventUpcaster implements RevisionUpcaster {

    private final SimpleSerializedType from;
    private final SimpleSerializedType to;

    protected JsonPayloadUpcaster(Class<?> eventType, String fromRevision, String toRevision) {
        this.from = new SimpleSerializedType(eventType.getName(), fromRevision);
        this.to = new SimpleSerializedType(eventType.getName(), toRevision);
    }

    /** Adds what the newer revision has and the older lacked. */
    protected abstract void edit(ObjectNode payload);

    @Override
    protected boolean canUpcast(IntermediateEventRepresentation representation) {
        return from.equals(representation.getType());
    }

    @Override
    protected IntermediateEventRepresentation doUpcast(IntermediateEventRepresentation representation) {
        return representation.upcastPayload(to, JsonNode.class, payload -> {
            edit((ObjectNode) payload);
            return payload;
        });
    }
}
