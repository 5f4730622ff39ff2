package io.herald.command.publication;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.platform.projection.JsonPayloadUpcaster;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Revision 2 says whether the post an operator confirmed was read back as the connection's own.
 * Revision 1 was written before decisions were checked: nothing was read, so nothing is claimed
 * ({@code verified} null), and the entry's later updates and deletes are not held back for it.
 */
@Component
@Order(4)
public class PublicationReconciledEvent_1_to_2Upcaster extends JsonPayloadUpcaster {

    public PublicationReconciledEvent_1_to_2Upcaster() {
        super(PublicationReconciledEvent.class, "1", "2");
    }

    @Override
    protected void edit(ObjectNode payload) {
        payload.putNull("verified");
    }
}
