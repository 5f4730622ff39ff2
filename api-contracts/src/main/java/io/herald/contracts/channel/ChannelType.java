package io.herald.contracts.channel;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/** The providers Herald publishes to. */
public enum ChannelType {
    FACEBOOK("facebook"),
    LINKEDIN("linkedin"),
    WORDPRESS("wordpress");

    private final String wireName;

    ChannelType(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static ChannelType fromWireName(String name) {
        return Arrays.stream(values())
                .filter(t -> t.wireName.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown channel type: " + name));
    }
}
