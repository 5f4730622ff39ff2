package io.herald.command.publication;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.platform.projection.JsonPayloadUpcaster;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Revision 3 names the step kinds the channel carries out for the action; a revision 2 request was
 * planned with the core kinds, which its empty {@code steps} stands for.
 */
@Component
@Order(6)
public class PublicationRequestedEvent_2_to_3Upcaster extends JsonPayloadUpcaster {

    public PublicationRequestedEvent_2_to_3Upcaster() {
        super(PublicationRequestedEvent.class, "2", "3");
    }

    @Override
    protected void edit(ObjectNode payload) {
        payload.putNull("steps");
    }
}
