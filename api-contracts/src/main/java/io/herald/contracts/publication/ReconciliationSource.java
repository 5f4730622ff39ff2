package io.herald.contracts.publication;

/** Who established a reconciliation result. */
public enum ReconciliationSource {
    AUTOMATIC,
    OPERATOR,
    PROVIDER_DUPLICATE_SIGNAL
}
