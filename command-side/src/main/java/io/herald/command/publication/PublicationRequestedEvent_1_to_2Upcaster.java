package io.herald.command.publication;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.projection.JsonPayloadUpcaster;
import io.herald.contracts.publication.PublicationRequestedEvent;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/** Revision 2's content may hold images and a first comment; a revision 1 request had neither. */
@Component
@Order(3)
public class PublicationRequestedEvent_1_to_2Upcaster extends JsonPayloadUpcaster {

    public PublicationRequestedEvent_1_to_2Upcaster() {
        super(PublicationRequestedEvent.class, "1", "2");
    }

    @Override
    protected void edit(ObjectNode payload) {
        JsonNode content = payload.get("content");
        if (content instanceof ObjectNode fields) {
            fields.putArray("media");
            fields.putNull("firstComment");
        }
    }
}
