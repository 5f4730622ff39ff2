package io.herald.contracts.channel;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/**
 * How an unknown outcome of a create on a connection can be settled without risking a second post:
 * the connection's own answer to "may Herald send it again, or must it read first, or ask someone?".
 */
public enum RetrySafety {
    /** Herald chooses the new object's identity: a repeat returns the same object, never a second one. */
    CLIENT_ID("client_id"),
    /** The provider deduplicates on a key Herald sends, for a while. */
    PROVIDER_KEY("provider_key"),
    /** Herald reads the provider back before anything is sent again. */
    READ_BACK("read_back"),
    /** Nothing can tell: an operator decides. */
    NONE("none");

    private final String wireName;

    RetrySafety(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static RetrySafety fromWireName(String name) {
        return Arrays.stream(values()).filter(s -> s.wireName.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown retry safety: " + name));
    }

    /** What a channel that can only read back offers: reading where the credentials allow it, else nothing. */
    public static RetrySafety byReadBack(Capability reconcile) {
        return reconcile != null && reconcile.available() ? READ_BACK : NONE;
    }
}
