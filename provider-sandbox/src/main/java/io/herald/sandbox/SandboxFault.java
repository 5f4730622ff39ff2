package io.herald.sandbox;

/**
 * A scripted misbehaviour for the next {@code times} matching requests of one target.
 *
 * @param operation        which requests it applies to: PUBLISH (creating a post), READ (listing or reading
 *                         back posts, images or comments), UPLOAD (an image's bytes), INITIALIZE_UPLOAD
 *                         (LinkedIn's upload registration), COMMENT (creating a comment), EDIT (changing a
 *                         post or an attachment), DELETE (removing a post, photo, attachment or comment), ANY
 * @param delayMillis      DELAY_THEN_CREATE: when to answer; CREATE_AFTER: when to create the post
 * @param retryAfterSeconds RATE_LIMIT: the delay the provider announces (0 = none announced)
 * @param providerCode     RATE_LIMIT on Facebook: 4 (application) or 32 (Page, the default)
 */
public record SandboxFault(
        String provider,
        String target,
        Type type,
        Operation operation,
        int times,
        long delayMillis,
        long retryAfterSeconds,
        Integer providerCode) {

    public enum Type {
        /**
         * Creates the post (or does the upload, comment, edit or delete), answers only after
         * {@code delayMillis}: a client read timeout with the effect done.
         */
        DELAY_THEN_CREATE,
        /** Never answers; creates the post (or has the request's effect) {@code delayMillis} after it arrived. */
        CREATE_AFTER,
        ERROR_5XX_WITH_EFFECT,
        ERROR_5XX_NO_EFFECT,
        /** Reads the request, then closes the connection without a byte of answer. */
        RESET_AFTER_READ,
        RATE_LIMIT,
        TOKEN_ERROR,
        /** Refuses the request as invalid (Facebook: code 100 on a post); nothing is stored. */
        VALIDATION_ERROR
    }

    public enum Operation {
        PUBLISH, READ, ANY, UPLOAD, INITIALIZE_UPLOAD, COMMENT, EDIT, DELETE;

        boolean covers(Operation actual) {
            return this == ANY || this == actual;
        }
    }

    public SandboxFault {
        operation = operation == null ? Operation.PUBLISH : operation;
        times = times <= 0 ? 1 : times;
    }

    public static SandboxFault of(String provider, String target, Type type) {
        return new SandboxFault(provider, target, type, Operation.PUBLISH, 1, 0, 0, null);
    }

    public SandboxFault withDelayMillis(long millis) {
        return new SandboxFault(provider, target, type, operation, times, millis, retryAfterSeconds, providerCode);
    }

    public SandboxFault withRetryAfterSeconds(long seconds) {
        return new SandboxFault(provider, target, type, operation, times, delayMillis, seconds, providerCode);
    }

    public SandboxFault withOperation(Operation op) {
        return new SandboxFault(provider, target, type, op, times, delayMillis, retryAfterSeconds, providerCode);
    }

    public SandboxFault withTimes(int n) {
        return new SandboxFault(provider, target, type, operation, n, delayMillis, retryAfterSeconds, providerCode);
    }

    public SandboxFault withProviderCode(Integer code) {
        return new SandboxFault(provider, target, type, operation, times, delayMillis, retryAfterSeconds, code);
    }
}
