package io.herald.contracts.channel;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.util.Objects;

/** The ChannelConnection aggregate's id: a channel id is unique within its workspace only. */
public record ChannelConnectionId(String value) {

    public ChannelConnectionId {
        Objects.requireNonNull(value, "value");
    }

    public static ChannelConnectionId of(WorkspaceId workspace, ChannelId channel) {
        return new ChannelConnectionId("chn_" + workspace.value() + "/" + channel.value());
    }

    @JsonCreator
    public static ChannelConnectionId parse(String value) {
        return new ChannelConnectionId(value);
    }

    @JsonValue
    @Override
    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return value;
    }
}
