package io.herald.contracts.publication;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/** What an operator may decide about a publication Herald cannot settle alone. */
public enum OperatorDecision {
    CONFIRM_PUBLISHED("confirm_published"),
    CONFIRM_NOT_PUBLISHED("confirm_not_published"),
    REATTEMPT("reattempt"),
    ABANDON("abandon");

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
