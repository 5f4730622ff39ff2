package io.herald.command.channel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.contracts.channel.ChannelCapabilitiesProbedEvent;
import io.herald.contracts.channel.RetrySafety;
import io.herald.platform.projection.JsonPayloadUpcaster;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Revision 2 says the connection's retry safety. Every channel of revision 1's time could only read
 * back, so its retry safety follows from the read-back capability the event already holds.
 */
@Component
@Order(5)
public class ChannelCapabilitiesProbedEvent_1_to_2Upcaster extends JsonPayloadUpcaster {

    public ChannelCapabilitiesProbedEvent_1_to_2Upcaster() {
        super(ChannelCapabilitiesProbedEvent.class, "1", "2");
    }

    @Override
    protected void edit(ObjectNode payload) {
        JsonNode reconcile = payload.get("reconcile");
        boolean reads = reconcile != null && reconcile.path("available").asBoolean(false);
        payload.put("retrySafety", (reads ? RetrySafety.READ_BACK : RetrySafety.NONE).wireName());
    }
}
