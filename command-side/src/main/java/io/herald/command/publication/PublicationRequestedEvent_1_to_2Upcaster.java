package io.herald.command.publication;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.contracts.publication.PublicationRequestedEvent;
import org.axonframework.serialization.SimpleSerializedType;
import org.axonframework.serialization.upcasting.event.IntermediateEventRepresentation;
import org.axonframework.serialization.upcasting.event.SingleEventUpcaster;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/** Revision 2's content may hold images and a first comment; a revision 1 request had neither. */
@Component
@Order(3)
public class PublicationRequestedEvent_1_to_2Upcaster extends SingleEventUpcaster {

    private static final SimpleSerializedType REVISION_1 =
            new SimpleSerializedType(PublicationRequestedEvent.class.getName(), "1");

    @Override
    protected boolean canUpcast(IntermediateEventRepresentation representation) {
        return REVISION_1.equals(representation.getType());
    }

    @Override
    protected IntermediateEventRepresentation doUpcast(IntermediateEventRepresentation representation) {
        return representation.upcastPayload(new SimpleSerializedType(REVISION_1.getName(), "2"), JsonNode.class,
                payload -> {
                    JsonNode content = payload.get("content");
                    if (content instanceof ObjectNode fields) {
                        fields.putArray("media");
                        fields.putNull("firstComment");
                    }
                    return payload;
                });
    }
}
