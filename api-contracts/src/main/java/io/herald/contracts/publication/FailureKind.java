package io.herald.contracts.publication;

/** Why a provider call failed, and so whether it may be tried again. */
public enum FailureKind {
    /** The request provably never left (refused, DNS, TLS handshake, connect timeout): safe to retry. */
    NOT_SENT,
    /** The provider refused because of a rate limit: retry after the provider's delay. */
    RATE_LIMITED,
    /**
     * Nothing was sent: what the step needs is not ready at the provider yet (a container still
     * being processed). Retried after the provider's delay, at a steady pace, with a budget of its
     * own ({@code not-ready-max-tries}).
     */
    NOT_READY,
    /** Validation, auth or permission refusal: never retried, an operator fixes the cause. */
    REJECTED;

    public boolean provablyNotExecuted() {
        return this != REJECTED;
    }
}
