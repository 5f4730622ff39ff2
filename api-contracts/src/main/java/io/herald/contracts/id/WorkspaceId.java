package io.herald.contracts.id;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/** A tenant of Herald; every publication, channel and key belongs to exactly one. */
public record WorkspaceId(String value) {

    public WorkspaceId {
        Objects.requireNonNull(value, "value");
    }

    @JsonCreator
    public static WorkspaceId of(String value) {
        return new WorkspaceId(value);
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
