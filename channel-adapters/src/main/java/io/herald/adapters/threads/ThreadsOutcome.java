package io.herald.adapters.threads;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.MetaMediaNotFound;
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
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * How a write to the Threads API ended. No answer, a 5xx, a 2xx without an id, and 400 code 24
 * subcode 4279009 ("Media Not Found", which Threads answers also after publishing: {@link
 * MetaMediaNotFound}) are unknown:
 * read back before anything else. 190 (or 401) is a lost token; 4, 17, 32, 613 and the publishing
 * limit (9/2207042) are rate limits; 9007/2207027 (the container is not ready) sent nothing and
 * is tried again; other 4xx are refusals with Threads' message.
 */
final class ThreadsOutcome {

    static final String NOT_READY = "9007/2207027";
    static final String AUTH_FIX = "Fix: make a new long-lived Threads token (threads_basic, threads_content_publish,"
            + " threads_manage_replies, threads_delete) and store it.";
    private static final Set<Integer> THROTTLING = Set.of(4, 17, 32, 613);
    /** When Threads says its limit is reached without saying for how long. */
    static final Duration LIMIT_WAIT = Duration.ofMinutes(15);

    private ThreadsOutcome() {
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
                            "Threads answered HTTP " + status + " without an id; the write may have taken effect.",
                            Traces.of(exchange, null, null)));
        }
        String code = ThreadsApi.providerCode(answered);
        String message = ThreadsApi.message(answered);
        AttemptTrace trace = Traces.of(exchange, code, Json.text(Json.parse(answered.body()).path("error"),
                "fbtrace_id"));
        if (status >= 500) {
            return new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR, "Threads answered HTTP " + status
                    + " (" + message + "); the write may have taken effect.", trace);
        }
        if (MetaMediaNotFound.mediaNotFound(code)) {
            return MetaMediaNotFound.readBack("Threads", code, message, trace);
        }
        if (ThreadsApi.tokenLost(exchange)) {
            return new PublishOutcome.AuthLost(code, "Threads refused the access token (" + message + "). "
                    + AUTH_FIX, trace);
        }
        int graph = ThreadsApi.code(answered);
        if (status == 429 || THROTTLING.contains(graph) || "9/2207042".equals(code)) {
            Duration wait = RetryAfter.parse(answered.header("Retry-After"), clock).orElse(LIMIT_WAIT);
            return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, code, "Threads refused the request as over its"
                    + " limits (" + message + "); nothing was written.", wait, trace);
        }
        if (NOT_READY.equals(code)) {
            return new PublishOutcome.Failed(FailureKind.NOT_SENT, "container_in_progress", "Threads has not finished"
                    + " the container (" + message + "); nothing was published, it is tried again later.", null,
                    trace);
        }
        return new PublishOutcome.Failed(FailureKind.REJECTED, code, "Threads refused the write (HTTP " + status
                + " " + code + ": " + message + "). Fix the content or the connection.", null, trace);
    }

    /** The object an answer names by {@code id}. */
    static Optional<ProviderRef> id(JsonNode body) {
        String id = Json.text(body, "id");
        return id == null || id.isBlank() ? Optional.empty() : Optional.of(new ProviderRef(id, null));
    }
}
