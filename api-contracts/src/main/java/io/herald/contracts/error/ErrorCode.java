package io.herald.contracts.error;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Stable, snake_case error codes of the HTTP contract (docs/api.md#problem-types). Clients and acceptance tests
 * depend on these strings: add codes, never rename one.
 */
public enum ErrorCode {
    VALIDATION_FAILED("validation_failed", 400),
    ACTION_NOT_SUPPORTED("action_not_supported", 400),
    OAUTH_STATE_INVALID("oauth_state_invalid", 400),
    UNAUTHENTICATED("unauthenticated", 401),
    SIGNATURE_INVALID("signature_invalid", 401),
    KEY_EXPIRED("key_expired", 401),
    FORBIDDEN("forbidden", 403),
    NOT_FOUND("not_found", 404),
    METHOD_NOT_ALLOWED("method_not_allowed", 405),
    NOT_ACCEPTABLE("not_acceptable", 406),
    PUBLICATION_ALREADY_SUCCEEDED("publication_already_succeeded", 409),
    OUTCOME_UNKNOWN_REQUIRES_DECISION("outcome_unknown_requires_decision", 409),
    ATTEMPT_IN_FLIGHT("attempt_in_flight", 409),
    DECISION_NOT_ALLOWED("decision_not_allowed", 409),
    PUBLICATION_NOT_EXECUTABLE("publication_not_executable", 409),
    CONCURRENT_MODIFICATION("concurrent_modification", 409),
    NOTHING_TO_CHANGE("nothing_to_change", 409),
    TARGET_UNVERIFIED("target_unverified", 409),
    LIMIT_REACHED("limit_reached", 409),
    MEDIA_IN_USE("media_in_use", 409),
    OAUTH_NOT_CONFIGURED("oauth_not_configured", 409),
    PAYLOAD_TOO_LARGE("payload_too_large", 413),
    QUOTA_EXCEEDED("quota_exceeded", 413),
    UNSUPPORTED_MEDIA_TYPE("unsupported_media_type", 415),
    IDEMPOTENCY_KEY_REUSED("idempotency_key_reused", 422),
    UNKNOWN_CHANNEL("unknown_channel", 422),
    CHANNEL_TYPE_CHANGED("channel_type_changed", 422),
    DESTINATION_NOT_ALLOWED("destination_not_allowed", 422),
    MEDIA_INVALID("media_invalid", 422),
    MEDIA_UNREADABLE("media_unreadable", 422),
    UNKNOWN_MEDIA("unknown_media", 422),
    POST_NOT_OWNED("post_not_owned", 422),
    OAUTH_FAILED("oauth_failed", 422),
    RATE_LIMITED("rate_limited", 429),
    INTERNAL_ERROR("internal_error", 500),
    UNAVAILABLE("unavailable", 503);

    private final String code;
    private final int httpStatus;

    ErrorCode(String code, int httpStatus) {
        this.code = code;
        this.httpStatus = httpStatus;
    }

    @JsonValue
    public String code() {
        return code;
    }

    public int httpStatus() {
        return httpStatus;
    }
}
