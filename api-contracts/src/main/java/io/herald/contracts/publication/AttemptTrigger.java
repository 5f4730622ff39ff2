package io.herald.contracts.publication;

/** Why an attempt was started. */
public enum AttemptTrigger {
    INITIAL,
    RETRY,
    EXECUTE_REQUESTED,
    OPERATOR_REATTEMPT,
    AUTO_REATTEMPT_AFTER_NOT_FOUND,
    /** The previous step ended and the publication has another (an upload, the post, the first comment). */
    NEXT_STEP,
    /** A held publication resumed after its connection was re-authorised. */
    RESUMED_AFTER_REAUTH
}
