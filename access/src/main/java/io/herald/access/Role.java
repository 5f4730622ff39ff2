package io.herald.access;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What a key may do (docs/api.md#authentication-and-roles). {@code SYSTEM} belongs to the one configured key. */
public enum Role {
    PUBLISHER, OPERATOR, AUDITOR, ADMIN, SYSTEM;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Role> fromWireName(String name) {
        return Arrays.stream(values()).filter(r -> r.wireName().equals(name)).findFirst();
    }
}
