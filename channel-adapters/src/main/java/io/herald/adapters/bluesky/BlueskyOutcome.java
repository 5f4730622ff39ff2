package io.herald.adapters.bluesky;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.RetryAfter;
import io.herald.adapters.http.Traces;
import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UnknownCause;
import io.herald.platform.wire.Json;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * How a write to a PDS ended. Errors are {@code {"error": name, "message"?}} and are told apart by
 * status and name, never by message text: 400 {@code InvalidSwap} means the key holds other
 * content (evidence for an operator, never a reason to choose another key); other 4xx are refusals;
 * a token still refused after the session was renewed means the app password no longer works; 429
 * waits for {@code RateLimit-Reset}; 5xx, no answer, or a 2xx without what it must carry is unknown.
 */
final class BlueskyOutcome {

    static final String RECORD_KEY_TAKEN = "record_key_taken";
    static final String AUTH_FIX = "Bluesky did not accept the handle and app password. Fix: create a new app "
            + "password for the account and store it.";

    private BlueskyOutcome() {
    }

    /**
     * A write's answer; {@code success} reads a 2xx body into the reference (empty when the body
     * lacks what it must carry).
     */
    static PublishOutcome of(BlueskySessions.Call call, Clock clock, String fingerprint,
                             Function<JsonNode, Optional<ProviderRef>> success) {
        if (call instanceof BlueskySessions.NoSession noSession) {
            return noSession(noSession.exchange(), clock, fingerprint);
        }
        Exchange exchange = call.exchange();
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return unanswered.writeOutcome();
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        JsonNode body = Json.parse(answered.body());
        String error = answered.success() ? null : Json.text(body, "error");
        AttemptTrace trace = Traces.of(exchange, error, null);
        int status = answered.status();
        if (answered.success()) {
            Optional<ProviderRef> ref = success.apply(body);
            return ref.<PublishOutcome>map(r -> new PublishOutcome.Published(r, null, trace))
                    .orElseGet(() -> new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                            "Bluesky answered HTTP " + status + " without the record's uri and cid; the write may "
                                    + "have taken effect.", trace));
        }
        String message = message(answered, body);
        if (status >= 500) {
            return new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR, "Bluesky answered HTTP " + status
                    + (error != null ? " (" + error + ")" : "") + message + "; the write may have taken effect.", trace);
        }
        if (status == 429) {
            return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, error != null ? error : "http_429",
                    "Bluesky refused the request as too many (HTTP 429)" + message, retryAfter(answered, clock), trace);
        }
        if (BlueskySessions.tokenRefused(exchange)) {
            return new PublishOutcome.AuthLost(error, "Bluesky refused the session even after it was renewed ("
                    + error + ")" + message + ". " + AUTH_FIX, trace);
        }
        if ("InvalidSwap".equals(error)) {
            return new PublishOutcome.Failed(FailureKind.REJECTED, RECORD_KEY_TAKEN,
                    "The record key Herald chose for this publication holds other content on Bluesky (400 "
                            + "InvalidSwap): nothing was written. Someone wrote under the key, or this publication's "
                            + "content was sent differently before; look at the record before deciding.", null, trace);
        }
        return new PublishOutcome.Failed(FailureKind.REJECTED, error != null ? error : "http_" + status,
                "Bluesky refused the write (HTTP " + status + (error != null ? ", " + error : "") + ")" + message
                        + ". Fix the content or the connection.", null, trace);
    }

    /** No session could be made: the write was not sent. */
    static PublishOutcome noSession(Exchange exchange, Clock clock, String fingerprint) {
        AttemptTrace trace = Traces.of(exchange, null, null);
        AttemptTrace notSent = new AttemptTrace(fingerprint, trace.target(), null, false, null, null,
                null, trace.durationMillis());
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return new PublishOutcome.Failed(FailureKind.NOT_SENT, null,
                    "No Bluesky session could be made, nothing was written: " + unanswered.detail(), null, notSent);
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        JsonNode body = Json.parse(answered.body());
        String error = Json.text(body, "error");
        if (answered.status() == 401 || BlueskySessions.tokenRefused(exchange)) {
            return new PublishOutcome.AuthLost(error != null ? error : "http_" + answered.status(),
                    AUTH_FIX + " (createSession answered HTTP " + answered.status() + message(answered, body) + ")",
                    notSent);
        }
        if (answered.status() == 429) {
            return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, error != null ? error : "http_429",
                    "Bluesky refused a new session as too many (HTTP 429); nothing was written.",
                    retryAfter(answered, clock), notSent);
        }
        return new PublishOutcome.Failed(FailureKind.NOT_SENT, error != null ? error : "http_" + answered.status(),
                "No Bluesky session could be made (createSession answered HTTP " + answered.status()
                        + message(answered, body) + "); nothing was written.", null, notSent);
    }

    /** {@code RateLimit-Reset} (epoch seconds), else {@code Retry-After}. */
    static Duration retryAfter(Exchange.Answered answered, Clock clock) {
        Optional<String> reset = answered.header("RateLimit-Reset");
        if (reset.isPresent()) {
            try {
                Duration wait = Duration.between(clock.instant(), Instant.ofEpochSecond(Long.parseLong(reset.get().trim())));
                return wait.isNegative() ? Duration.ZERO : wait;
            } catch (NumberFormatException | java.time.DateTimeException ignored) {
                // fall back to Retry-After
            }
        }
        return RetryAfter.parse(answered.header("Retry-After"), clock).orElse(null);
    }

    /** ": <the PDS's message>", redacted and shortened, or "" without one. */
    static String message(Exchange.Answered answered, JsonNode body) {
        String message = Json.text(body, "message");
        return message == null ? "" : ": " + Redactor.excerpt(message, answered.request().secrets(), 300);
    }
}
