package io.herald.contracts.publication;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/** What to do at the channel: {@code publish} (every channel) or {@code draft} (WordPress only). */
public enum PublicationAction {
    PUBLISH("publish"),
    DRAFT("draft");

    private final String wireName;

    PublicationAction(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static PublicationAction fromWireName(String name) {
        return Arrays.stream(values())
                .filter(a -> a.wireName.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown action: " + name));
    }
}
