package io.herald.contracts.publication;

/** Why an attempt was started. */
public enum AttemptTrigger {
    INITIAL,
    RETRY,
    EXECUTE_REQUESTED,
    OPERATOR_REATTEMPT,
    AUTO_REATTEMPT_AFTER_NOT_FOUND,
    /** A held publication resumed after its connection was re-authorised. */
    RESUMED_AFTER_REAUTH
}
