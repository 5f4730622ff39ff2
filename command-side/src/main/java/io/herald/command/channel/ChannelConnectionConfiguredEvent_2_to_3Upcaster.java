package io.herald.command.channel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.contracts.channel.ChannelConnectionConfiguredEvent;
import io.herald.platform.projection.JsonPayloadUpcaster;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Revision 3 says whether the connection's posts are read again after success. A revision 2 event
 * stored before connections verified has no such field, and one stored while the field was optional
 * may hold null: both were connections that did not verify, so both read as false.
 */
@Component
@Order(7)
public class ChannelConnectionConfiguredEvent_2_to_3Upcaster extends JsonPayloadUpcaster {

    public ChannelConnectionConfiguredEvent_2_to_3Upcaster() {
        super(ChannelConnectionConfiguredEvent.class, "2", "3");
    }

    @Override
    protected void edit(ObjectNode payload) {
        JsonNode verify = payload.get("verifyAfterSuccess");
        if (verify == null || !verify.isBoolean()) {
            payload.put("verifyAfterSuccess", false);
        }
    }
}
