package io.herald.command.publication;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import org.axonframework.serialization.SimpleSerializedType;
import org.axonframework.serialization.upcasting.event.IntermediateEventRepresentation;
import org.axonframework.serialization.upcasting.event.SingleEventUpcaster;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Revision 2 records the attempt an execution request authorises, so the dispatcher can tell a
 * redelivered request from a new one. Revision 1 did not: it reads as attempt 0, "the next one".
 */
@Component
@Order(1)
public class PublicationExecutionRequestedEvent_1_to_2Upcaster extends SingleEventUpcaster {

    private static final SimpleSerializedType REVISION_1 =
            new SimpleSerializedType(PublicationExecutionRequestedEvent.class.getName(), "1");

    @Override
    protected boolean canUpcast(IntermediateEventRepresentation representation) {
        return REVISION_1.equals(representation.getType());
    }

    @Override
    protected IntermediateEventRepresentation doUpcast(IntermediateEventRepresentation representation) {
        return representation.upcastPayload(new SimpleSerializedType(REVISION_1.getName(), "2"), JsonNode.class,
                payload -> {
                    ((ObjectNode) payload).put("attemptNo", 0);
                    return payload;
                });
    }
}
