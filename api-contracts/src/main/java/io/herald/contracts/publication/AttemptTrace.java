package io.herald.contracts.publication;

import java.time.Instant;

/**
 * What one provider call sent and what came back, kept for later comparison (docs/architecture.md#rules-an-auditor-can-check, rule 6).
 * Never holds a token or password: the fingerprint is a hash of the canonical request without
 * credentials.
 *
 * @param target           the provider-side target, e.g. a Page id, author URN or site URL
 * @param sentAt           when the request was sent, null if it never left
 * @param responseReceived false when nothing came back (timeout, reset, crash)
 * @param httpStatus       the HTTP status, null when no response came back
 * @param providerCode     the provider's error code (e.g. {@code 190}, {@code rest_cannot_create})
 * @param providerTraceId  the provider's trace id (e.g. {@code fbtrace_id})
 * @param durationMillis   how long the call took
 */
public record AttemptTrace(
        String requestFingerprint,
        String target,
        Instant sentAt,
        boolean responseReceived,
        Integer httpStatus,
        String providerCode,
        String providerTraceId,
        long durationMillis) {

    public static AttemptTrace nothingCameBack(String target, Instant sentAt) {
        return new AttemptTrace(null, target, sentAt, false, null, null, null, 0);
    }
}
