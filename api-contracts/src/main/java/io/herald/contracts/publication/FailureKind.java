package io.herald.contracts.publication;

/** Why a provider call failed, and so whether it may be tried again. */
public enum FailureKind {
    /** The request provably never left (refused, DNS, TLS handshake, connect timeout): safe to retry. */
    NOT_SENT,
    /** The provider refused because of a rate limit: retry after the provider's delay. */
    RATE_LIMITED,
    /** Validation, auth or permission refusal: never retried, an operator fixes the cause. */
    REJECTED;

    public boolean provablyNotExecuted() {
        return this == NOT_SENT || this == RATE_LIMITED;
    }
}
