package io.herald.contracts.publication;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/** What an operator may decide about a publication Herald cannot settle alone. */
public enum OperatorDecision {
    CONFIRM_PUBLISHED("confirm_published"),
    CONFIRM_NOT_PUBLISHED("confirm_not_published"),
    REATTEMPT("reattempt"),
    ABANDON("abandon"),
    /** A post that vanished after success: its removal at the provider stands (docs/api.md#verification-after-success). */
    CONFIRM_REMOVED("confirm_removed"),
    /** A post that vanished after success: publish it again, as the entry's next content version. */
    REPUBLISH("republish");

    private final String wireName;

    OperatorDecision(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static OperatorDecision fromWireName(String name) {
        return Arrays.stream(values())
                .filter(d -> d.wireName.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown decision: " + name));
    }
}
