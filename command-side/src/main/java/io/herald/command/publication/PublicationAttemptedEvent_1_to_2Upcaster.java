package io.herald.command.publication;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationStep;
import org.axonframework.serialization.SimpleSerializedType;
import org.axonframework.serialization.upcasting.event.IntermediateEventRepresentation;
import org.axonframework.serialization.upcasting.event.SingleEventUpcaster;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Revision 2 names the step an attempt makes (and the image, for an upload). Every attempt of
 * revision 1 created a post: there were no other steps then.
 */
@Component
@Order(2)
public class PublicationAttemptedEvent_1_to_2Upcaster extends SingleEventUpcaster {

    private static final SimpleSerializedType REVISION_1 =
            new SimpleSerializedType(PublicationAttemptedEvent.class.getName(), "1");

    @Override
    protected boolean canUpcast(IntermediateEventRepresentation representation) {
        return REVISION_1.equals(representation.getType());
    }

    @Override
    protected IntermediateEventRepresentation doUpcast(IntermediateEventRepresentation representation) {
        return representation.upcastPayload(new SimpleSerializedType(REVISION_1.getName(), "2"), JsonNode.class,
                payload -> {
                    ((ObjectNode) payload).put("step", PublicationStep.CREATE_POST.wireName());
                    ((ObjectNode) payload).putNull("mediaId");
                    return payload;
                });
    }
}
