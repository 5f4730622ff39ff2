package io.herald.adapters.wordpress;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.RetryAfter;
import io.herald.adapters.http.Traces;
import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UnknownCause;
import io.herald.platform.wire.Json;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * How a write to a site ended: the post with its id (and whether the site kept Herald's meta key),
 * a refusal with its fix, a revoked password (any 401), or no proof either way.
 */
final class WordPressOutcome {

    private WordPressOutcome() {
    }

    /** @param publicationId the id the post's meta should carry; empty where the write sets none */
    static PublishOutcome of(Exchange exchange, String publicationId, Clock clock) {
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return unanswered.writeOutcome();
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        JsonNode body = Json.parse(answered.body());
        String code = answered.success() ? null : Json.text(body, "code");
        AttemptTrace trace = Traces.of(exchange, code, answered.header("x-request-id").orElse(null));
        int status = answered.status();
        if (answered.success()) {
            JsonNode id = body.path("id");
            if (!id.canConvertToLong() || id.asLong() <= 0) {
                return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                        "WordPress answered HTTP " + status + " without a post id"
                                + (answered.bodyTooLarge() ? " (" + WordPressRest.TOO_LARGE + ")" : "")
                                + "; the post may have been created.", trace);
            }
            ProviderRef ref = new ProviderRef(id.asText(), Json.text(body, "link"));
            // PHP sends an empty map as [] : "meta":[] means no registered meta at all.
            JsonNode meta = body.path("meta");
            boolean kept = meta.isObject() && publicationId.equals(Json.text(meta, WordPressAdapter.META_KEY));
            Capability change = kept ? null : Capability.unavailable(
                    "the site no longer keeps Herald's meta key: " + WordPressRest.MU_PLUGIN_HINT);
            return new PublishOutcome.Published(ref, change, trace);
        }
        String message = WordPressRest.errorMessage(answered, body, 300);
        if (status >= 500) {
            return new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR,
                    "WordPress answered HTTP " + status + (code != null ? " (" + code + ")" : "") + ": " + message
                            + " The post may have been created.", trace);
        }
        if (status == 429) {
            return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, code != null ? code : "http_429",
                    "The site refused the request as too many (HTTP 429): " + message,
                    RetryAfter.parse(answered.header("Retry-After"), clock).orElse(null), trace);
        }
        String detail = "WordPress refused the post (HTTP " + status + (code != null ? ", " + code : "") + "): "
                + message + " " + fix(status, code, body);
        if (status == 401) {
            // a write refused with 401: the password was revoked or deleted (docs/channels.md#wordpress), nothing was written
            return new PublishOutcome.AuthLost(code != null ? code : "http_401", detail, trace);
        }
        return new PublishOutcome.Failed(FailureKind.REJECTED, code != null ? code : "http_" + status, detail, null,
                trace);
    }

    private static String fix(int status, String code, JsonNode body) {
        if (status == 401) {
            // A stock site hides a wrong password behind generic codes: any 401 is a credential problem.
            return "WordPress did not accept the user name and application password. Fix: create a new "
                    + "application password for the user and store it.";
        }
        if (status == 403) {
            return "The user may not " + ("rest_cannot_publish".equals(code) ? "publish" : "create") + " posts. "
                    + "Fix: give the user the Editor or Author role.";
        }
        if ("rest_invalid_param".equals(code)) {
            return "A field was refused" + invalidParams(body) + ". Fix the content or schedule.";
        }
        if (status == 404) {
            return "The site has no posts route at this address. Fix: check the site URL.";
        }
        return "Fix the content or the connection.";
    }

    private static String invalidParams(JsonNode body) {
        JsonNode params = body.path("data").path("params");
        if (!params.isObject() || params.isEmpty()) {
            return "";
        }
        List<String> fields = new ArrayList<>();
        params.fields().forEachRemaining(e -> fields.add(e.getKey() + ": " + e.getValue().asText()));
        return " (" + Redactor.excerpt(String.join("; ", fields), List.of(), 300) + ")";
    }
}
