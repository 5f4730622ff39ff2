package io.herald.contracts.channel;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A provider Herald publishes to, by its wire name ({@code facebook}, {@code bluesky}, …). Which
 * types exist is the channel plug-ins' business: this is only the name, and the plug-in registry
 * answers whether a name is known. Serialised as the bare wire name, as the enum it replaces was.
 */
public record ChannelType(String wireName) implements Comparable<ChannelType> {

    private static final Pattern WIRE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,29}");

    public ChannelType {
        Objects.requireNonNull(wireName, "wireName");
        if (!WIRE_NAME.matcher(wireName).matches()) {
            throw new IllegalArgumentException("not a channel type name: " + wireName);
        }
    }

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static ChannelType of(String wireName) {
        return new ChannelType(wireName);
    }

    @Override
    @JsonValue
    public String wireName() {
        return wireName;
    }

    @Override
    public int compareTo(ChannelType other) {
        return wireName.compareTo(other.wireName);
    }

    @Override
    public String toString() {
        return wireName;
    }
}
