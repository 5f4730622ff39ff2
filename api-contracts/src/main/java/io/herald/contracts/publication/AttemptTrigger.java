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
    RESUMED_AFTER_REAUTH,
    /**
     * An unknown create sent again with the same record id or idempotency key, without a read-back
     * first: only on a connection whose provider cannot make a second post from it
     * ({@code client_id}, {@code provider_key}); a {@link PublicationResendDueEvent} says why.
     */
    RESEND_SAME_KEY
}
