package io.herald.contracts.error;

/** One invalid field of a request: its JSON path and what is wrong, in words a client can act on. */
public record FieldViolation(String field, String message) {
}
