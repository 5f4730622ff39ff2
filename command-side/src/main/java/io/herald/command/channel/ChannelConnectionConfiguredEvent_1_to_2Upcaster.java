package io.herald.command.channel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.contracts.channel.ChannelConnectionConfiguredEvent;
import io.herald.platform.projection.JsonPayloadUpcaster;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Revision 1 stored one settings record with every provider's fields, most of them null; revision 2
 * stores the channel plug-in's own record, tagged with the channel type. The tag comes from the
 * event's own {@code type}; the fields of other providers were null and are dropped, so the
 * plug-in's record reads exactly its own.
 */
@Component
@Order(4)
public class ChannelConnectionConfiguredEvent_1_to_2Upcaster extends JsonPayloadUpcaster {

    public ChannelConnectionConfiguredEvent_1_to_2Upcaster() {
        super(ChannelConnectionConfiguredEvent.class, "1", "2");
    }

    @Override
    protected void edit(ObjectNode payload) {
        JsonNode type = payload.get("type");
        if (payload.get("settings") instanceof ObjectNode settings && type != null && type.isTextual()) {
            ObjectNode tagged = settings.objectNode().put("type", type.asText());
            settings.fields().forEachRemaining(field -> {
                if (!field.getValue().isNull()) {
                    tagged.set(field.getKey(), field.getValue());
                }
            });
            payload.set("settings", tagged);
        }
    }
}
