package io.herald.contracts.publication;

/** Why an attempt was started. */
public enum AttemptTrigger {
    INITIAL,
    RETRY,
    EXECUTE_REQUESTED,
    OPERATOR_REATTEMPT,
    AUTO_REATTEMPT_AFTER_NOT_FOUND
}
