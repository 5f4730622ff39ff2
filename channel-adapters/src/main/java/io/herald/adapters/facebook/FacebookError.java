package io.herald.adapters.facebook;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.platform.wire.Json;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.RetryAfter;
import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.UnknownCause;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;

/**
 * A Graph API error body {@code {"error":{"message","type","code","error_subcode","fbtrace_id"}}}
 * and what Herald makes of it (docs/channels.md#facebook-pages, docs/architecture.md#outcome-classification).
 */
record FacebookError(int code, Integer subcode, String message, String userMessage) {

    static final Set<Integer> RATE_LIMIT_CODES = Set.of(4, 17, 32, 613, 80001);

    /** The error in an answer, or null when the body carries none. Its message is already redacted. */
    static FacebookError of(Exchange.Answered answered, JsonNode body) {
        JsonNode error = body.path("error");
        if (!error.isObject() || !error.path("code").canConvertToInt()) {
            return null;
        }
        JsonNode sub = error.path("error_subcode");
        return new FacebookError(error.path("code").asInt(),
                sub.canConvertToInt() ? sub.asInt() : null,
                Redactor.excerpt(Json.text(error, "message"), answered.request().secrets(), 400),
                Redactor.excerpt(Json.text(error, "error_user_msg"), answered.request().secrets(), 300));
    }

    String codeText() {
        return Integer.toString(code);
    }

    private String codeWithSub() {
        return subcode == null ? "code " + code : "code " + code + ", subcode " + subcode;
    }

    boolean isPermission() {
        return code == 10 || (code >= 200 && code <= 299);
    }

    /** A User token used where a Page token is needed. */
    boolean needsPageToken() {
        return code == 190 && message != null && message.contains("Page Access Token");
    }

    static final Set<Integer> LAPSED_SUBCODES = Set.of(458, 460, 463, 467);

    /**
     * Credentials that worked and lapsed: expired (463), invalidated by a password change (460), a
     * logout (467) or the app's removal (458). A token that never parsed, or a User token where a
     * Page token belongs, is a wrong setting and stays a rejection.
     */
    boolean authLost() {
        return code == 190 && subcode != null && LAPSED_SUBCODES.contains(subcode);
    }

    String providerCode() {
        return subcode == null ? codeText() : code + "/" + subcode;
    }

    /** Errors that make reading impossible until an operator changes the credentials. */
    boolean blocksReading() {
        return code == 190 || isPermission();
    }

    String readReason() {
        if (needsPageToken()) {
            return "Facebook refused to read the Page feed: " + message
                    + " The stored read token is a User token; store a Page access token for reading.";
        }
        if (code == 190) {
            return "Facebook rejected the read token (" + codeWithSub() + "): " + message
                    + " Store a fresh Page access token.";
        }
        return "The read token lacks a permission to read the Page feed (" + codeWithSub() + "): " + message
                + " Grant pages_read_engagement and pages_read_user_content.";
    }

    PublishOutcome toPublishOutcome(Exchange.Answered answered, AttemptTrace trace, Clock clock) {
        if (code == 1 || code == 2 || answered.status() >= 500) {
            return new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR,
                    "Facebook answered HTTP " + answered.status() + " with a service error (" + codeWithSub() + "): "
                            + message + " The post may have been created.", trace);
        }
        if (RATE_LIMIT_CODES.contains(code)) {
            Duration delay = delay(answered, clock);
            return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, codeText(),
                    "Facebook rate limit reached (" + codeWithSub() + "): " + message
                            + (delay != null ? " Access returns in about " + delay.toMinutes() + " min." : ""),
                    delay, trace);
        }
        if (code == 506) {
            return new PublishOutcome.DuplicateRefused(null,
                    "Facebook refused the text as a duplicate of the Page's previous post (" + codeWithSub() + "): "
                            + message, trace);
        }
        if (authLost()) {
            return new PublishOutcome.AuthLost(providerCode(), rejection(), trace);
        }
        return new PublishOutcome.Failed(FailureKind.REJECTED, codeText(), rejection(), null, trace);
    }

    private String rejection() {
        String fix;
        if (code == 190) {
            if (needsPageToken()) {
                fix = "The stored token is a User token. Fix: store a Page access token for this Page.";
            } else if (Integer.valueOf(463).equals(subcode)) {
                fix = "The Page access token has expired. Fix: store a fresh Page access token.";
            } else if (Integer.valueOf(460).equals(subcode)) {
                fix = "The token was invalidated by a password change. Fix: reconnect the Page and store a new token.";
            } else if (Integer.valueOf(467).equals(subcode)) {
                fix = "The session ended when the user logged out. Fix: reconnect the Page and store a new token.";
            } else if (Integer.valueOf(458).equals(subcode)) {
                fix = "The user removed the app. Fix: authorise the app again and store a new Page access token.";
            } else {
                fix = "The access token is invalid. Fix: store a valid Page access token.";
            }
        } else if (isPermission()) {
            fix = "A permission is missing. Fix: grant pages_manage_posts and pages_read_engagement to the app "
                    + "and store a new Page access token.";
        } else if (code == 100) {
            fix = "A parameter was refused (e.g. the scheduled time must be 10 minutes to 75 days ahead). "
                    + "Fix the content or schedule.";
        } else if (code == 197) {
            fix = "The post is empty. Fix: give the content a body or a link.";
        } else if (code == 368) {
            fix = "Facebook blocked the post as abusive or already posted. Check the Page and the text.";
        } else if (code == 1500) {
            fix = "The link is not a valid URL. Fix the content's link.";
        } else {
            fix = "Check the message and the connection.";
        }
        String user = userMessage == null || userMessage.isBlank() ? "" : " (" + userMessage + ")";
        return "Facebook refused the post (" + codeWithSub() + "): " + message + user + " " + fix;
    }

    /**
     * The provider's delay: {@code estimated_time_to_regain_access} (minutes) from the Page's
     * business-use-case usage header, else {@code Retry-After}; null when neither says.
     */
    static Duration delay(Exchange.Answered answered, Clock clock) {
        Optional<String> usage = answered.header("x-business-use-case-usage");
        long minutes = 0;
        if (usage.isPresent()) {
            JsonNode root = Json.parse(usage.get());
            for (Iterator<JsonNode> it = root.elements(); it.hasNext(); ) {
                for (JsonNode entry : it.next()) {
                    minutes = Math.max(minutes, entry.path("estimated_time_to_regain_access").asLong(0));
                }
            }
        }
        if (minutes > 0) {
            return Duration.ofMinutes(minutes);
        }
        return RetryAfter.parse(answered.header("Retry-After"), clock).orElse(null);
    }
}
