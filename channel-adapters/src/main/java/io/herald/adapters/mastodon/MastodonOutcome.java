package io.herald.adapters.mastodon;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Traces;
import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UnknownCause;
import io.herald.platform.wire.Json;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;

/**
 * How a write to a Mastodon instance ended. 5xx (which some instances answer to a repeated
 * {@code Idempotency-Key}), no answer, or a 2xx without the status's id is unknown; 429 waits for
 * {@code X-RateLimit-Reset}; 401, and a 403 for the token's scopes, mean the token no longer does
 * (a new one fixes it); 422 is the instance's refusal with its message — but attaching media still
 * being processed is retryable; other 4xx are refusals.
 */
final class MastodonOutcome {

    static final String MEDIA_PROCESSING = "media_processing";
    static final String AUTH_FIX = "Fix: create a new access token on the instance (scopes write:statuses, "
            + "write:media, read:statuses, read:accounts) and store it.";

    private MastodonOutcome() {
    }

    static PublishOutcome of(Exchange exchange, Clock clock, Function<JsonNode, Optional<ProviderRef>> success) {
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return unanswered.writeOutcome();
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        int status = answered.status();
        if (answered.success()) {
            Optional<ProviderRef> ref = answered.bodyTooLarge() ? Optional.empty()
                    : success.apply(Json.parse(answered.body()));
            return ref.<PublishOutcome>map(r -> new PublishOutcome.Published(r, null, Traces.of(exchange, null, null)))
                    .orElseGet(() -> new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                            "Mastodon answered HTTP " + status + " without a readable status; the write may have "
                                    + "taken effect.", Traces.of(exchange, null, null)));
        }
        String error = MastodonApi.error(answered);
        String code = "http_" + status;
        AttemptTrace trace = Traces.of(exchange, code, null);
        if (status >= 500) {
            return new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR, "Mastodon answered HTTP " + status
                    + " (" + error + "); the write may have taken effect.", trace);
        }
        if (status == 429) {
            return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, code, "Mastodon refused the request as too "
                    + "many (HTTP 429: " + error + "); nothing was written.", MastodonApi.retryAfter(answered, clock),
                    trace);
        }
        if (status == 401 || MastodonApi.outsideScopes(answered)) {
            return new PublishOutcome.AuthLost(code, "Mastodon refused the access token (HTTP " + status + ": " + error
                    + "). " + AUTH_FIX, trace);
        }
        if (status == 422 && error.contains("not finished processing")) {
            return new PublishOutcome.Failed(FailureKind.NOT_SENT, MEDIA_PROCESSING, "Mastodon is still processing an "
                    + "image of the status (HTTP 422: " + error + "); nothing was written, the status is sent again "
                    + "later.", null, trace);
        }
        return new PublishOutcome.Failed(FailureKind.REJECTED, code, "Mastodon refused the write (HTTP " + status
                + ": " + error + "). Fix the content or the connection.", null, trace);
    }
}
