package io.herald.adapters.facebook;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.Traces;
import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UnknownCause;
import io.herald.platform.wire.Json;
import java.time.Clock;
import java.util.List;

/** How a Graph API write ended: an answer naming the new object's id, a Graph error, or no answer. */
final class FacebookOutcome {

    private FacebookOutcome() {
    }

    static PublishOutcome of(Exchange exchange, Clock clock) {
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return unanswered.writeOutcome();
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        List<String> secrets = answered.request().secrets();
        JsonNode body = Json.parse(answered.body());
        FacebookError error = FacebookError.of(answered, body);
        var trace = Traces.of(exchange, error == null ? null : error.codeText(), FacebookGraph.traceId(answered, body));
        if (answered.success()) {
            String id = Json.text(body, "id");
            if (!Texts.blank(id)) {
                return new PublishOutcome.Published(new ProviderRef(id, "https://www.facebook.com/" + id), null,
                        trace);
            }
            return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                    "Facebook answered HTTP " + answered.status() + " without a post id: "
                            + Redactor.excerpt(answered.body(), secrets, 300),
                    trace);
        }
        if (error == null) {
            if (answered.status() >= 500) {
                return new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR,
                        "Facebook answered HTTP " + answered.status() + ": "
                                + Redactor.excerpt(answered.body(), secrets, 300), trace);
            }
            if (answered.status() == 429) {
                return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, "http_429",
                        "Facebook answered HTTP 429 (rate limited).", FacebookError.delay(answered, clock), trace);
            }
            return new PublishOutcome.Failed(FailureKind.REJECTED, "http_" + answered.status(),
                    "Facebook refused the request with HTTP " + answered.status() + ": "
                            + Redactor.excerpt(answered.body(), secrets, 300), null, trace);
        }
        return error.toPublishOutcome(answered, trace, clock);
    }
}
