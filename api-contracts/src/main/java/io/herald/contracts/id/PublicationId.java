package io.herald.contracts.id;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/** The publication's idempotency key, which is also its aggregate id: {@code pub_<sha256 hex>}. */
public record PublicationId(String value) {

    public PublicationId {
        Objects.requireNonNull(value, "value");
    }

    @JsonCreator
    public static PublicationId of(String value) {
        return new PublicationId(value);
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
