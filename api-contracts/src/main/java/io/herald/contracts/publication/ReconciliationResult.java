package io.herald.contracts.publication;

/** What a read-back at the provider found. */
public enum ReconciliationResult {
    FOUND,
    NOT_FOUND,
    UNKNOWN
}
