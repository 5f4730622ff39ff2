package io.herald.command.publication;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.projection.JsonPayloadUpcaster;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationStep;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Revision 2 names the step an attempt makes (and the image, for an upload). Every attempt of
 * revision 1 created a post: there were no other steps then.
 */
@Component
@Order(2)
public class PublicationAttemptedEvent_1_to_2Upcaster extends JsonPayloadUpcaster {

    public PublicationAttemptedEvent_1_to_2Upcaster() {
        super(PublicationAttemptedEvent.class, "1", "2");
    }

    @Override
    protected void edit(ObjectNode payload) {
        payload.put("step", PublicationStep.CREATE_POST.wireName());
        payload.putNull("mediaId");
    }
}
