package io.herald.contracts.publication;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/**
 * What to do at the channel: {@code publish} (every channel) or {@code draft} (WordPress only)
 * create the entry's post; {@code update} and {@code delete} act on the post they created.
 */
public enum PublicationAction {
    PUBLISH("publish"),
    DRAFT("draft"),
    UPDATE("update"),
    DELETE("delete");

    private final String wireName;

    PublicationAction(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** Creates the entry's post at the channel (the target of later updates and deletes). */
    public boolean createsPost() {
        return this == PUBLISH || this == DRAFT;
    }

    /**
     * Acts on the entry's existing post. Such steps converge: sent twice, they leave the same post,
     * so after an unknown outcome a read-back that shows the change missing sends them again.
     */
    public boolean actsOnPost() {
        return this == UPDATE || this == DELETE;
    }

    @JsonCreator
    public static PublicationAction fromWireName(String name) {
        return Arrays.stream(values())
                .filter(a -> a.wireName.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown action: " + name));
    }
}
