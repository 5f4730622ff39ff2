package io.herald.adapters.instagram;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.Traces;
import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UnknownCause;
import io.herald.platform.wire.Json;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** One Graph call and its answer read once: the exchange, the JSON body, the Graph error if any. */
record InstagramCalls(ProviderHttp http, InstagramGraph graph) {

    /** An answer: {@code body} is an empty object when there is none or it is no JSON. */
    record Answer(Exchange exchange, JsonNode body, InstagramError error) {

        boolean answered() {
            return exchange instanceof Exchange.Answered;
        }

        boolean ok() {
            return exchange instanceof Exchange.Answered a && a.success() && error == null;
        }

        AttemptTrace trace() {
            String traceId = exchange instanceof Exchange.Answered a ? InstagramGraph.traceId(a, body) : null;
            return Traces.of(exchange, error == null ? null : error.providerCode(), traceId);
        }

        String detail() {
            if (exchange instanceof Exchange.Unanswered unanswered) {
                return unanswered.detail();
            }
            Exchange.Answered a = (Exchange.Answered) exchange;
            return error != null ? error.describe() : "Instagram answered HTTP " + a.status() + ": "
                    + Redactor.excerpt(a.body(), a.request().secrets(), 300);
        }

        /**
         * What a write that got this answer amounts to: the new object's id, or the Graph error's
         * meaning; {@code limitWait} is how long to wait when the publishing limit is reached.
         */
        PublishOutcome writeOutcome(Duration limitWait) {
            if (exchange instanceof Exchange.Unanswered unanswered) {
                return unanswered.writeOutcome();
            }
            Exchange.Answered answered = (Exchange.Answered) exchange;
            if (ok()) {
                String id = Json.text(body, "id");
                if (id != null && !id.isBlank()) {
                    return new PublishOutcome.Published(new ProviderRef(id, null), null, trace());
                }
                return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                        "Instagram answered HTTP " + answered.status() + " without an id: " + detail(), trace());
            }
            if (error == null || error.serviceError() || answered.status() >= 500) {
                if (error == null && answered.status() == 429) {
                    return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, "http_429",
                            "Instagram answered HTTP 429 (rate limited).", null, trace());
                }
                if (error == null && answered.status() < 500) {
                    return new PublishOutcome.Failed(FailureKind.REJECTED, "http_" + answered.status(), detail(),
                            null, trace());
                }
                return new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR, detail()
                        + " The request may have taken effect.", trace());
            }
            if (error.publishingLimitReached()) {
                return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, "publishing_limit_reached",
                        "The account reached its publishing limit (" + error.providerCode() + "); the publication"
                                + " waits until the window allows another post.", limitWait, trace());
            }
            if (error.rateLimited()) {
                return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, error.providerCode(), detail(), null,
                        trace());
            }
            if (error.authLost()) {
                return new PublishOutcome.AuthLost(error.providerCode(), error.describe(), trace());
            }
            return new PublishOutcome.Failed(FailureKind.REJECTED, error.providerCode(), error.describe(), null,
                    trace());
        }
    }

    CompletableFuture<Answer> send(OutgoingRequest request) {
        return http.send(request).thenApply(InstagramCalls::read);
    }

    static Answer read(Exchange exchange) {
        if (exchange instanceof Exchange.Answered answered) {
            JsonNode body = Json.parse(answered.body());
            return new Answer(exchange, body, InstagramError.of(answered, body));
        }
        return new Answer(exchange, Json.object(), null);
    }
}
