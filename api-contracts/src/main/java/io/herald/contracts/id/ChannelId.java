package io.herald.contracts.id;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/** A workspace's channel connection (a specific Page, LinkedIn author or WordPress site). */
public record ChannelId(String value) {

    public ChannelId {
        Objects.requireNonNull(value, "value");
    }

    @JsonCreator
    public static ChannelId of(String value) {
        return new ChannelId(value);
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
