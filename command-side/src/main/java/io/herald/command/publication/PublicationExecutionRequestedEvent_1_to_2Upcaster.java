package io.herald.command.publication;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.projection.JsonPayloadUpcaster;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Revision 2 records the attempt an execution request authorises, so the dispatcher can tell a
 * redelivered request from a new one. Revision 1 did not: it reads as attempt 0, "the next one".
 */
@Component
@Order(1)
public class PublicationExecutionRequestedEvent_1_to_2Upcaster extends JsonPayloadUpcaster {

    public PublicationExecutionRequestedEvent_1_to_2Upcaster() {
        super(PublicationExecutionRequestedEvent.class, "1", "2");
    }

    @Override
    protected void edit(ObjectNode payload) {
        payload.put("attemptNo", 0);
    }
}
