package io.herald.command.publication;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.platform.projection.JsonPayloadUpcaster;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Revision 2 carries what the step's view says besides its success (a note such as "image
 * converted to JPEG for Instagram"). Revision 1 had none: its note is null, and the step shows no
 * detail, as before.
 */
@Component
@Order(7)
public class PublicationSucceededEvent_1_to_2Upcaster extends JsonPayloadUpcaster {

    public PublicationSucceededEvent_1_to_2Upcaster() {
        super(PublicationSucceededEvent.class, "1", "2");
    }

    @Override
    protected void edit(ObjectNode payload) {
        payload.putNull("note");
    }
}
