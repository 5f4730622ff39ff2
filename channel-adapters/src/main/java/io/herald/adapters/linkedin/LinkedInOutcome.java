package io.herald.adapters.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.RetryAfter;
import io.herald.adapters.http.Texts;
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
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a LinkedIn write ended: the new post named by {@code x-restli-id}, a duplicate refusal
 * naming the earlier post, a daily limit until midnight UTC, a lost token, or a refusal with its fix.
 */
final class LinkedInOutcome {

    private static final Pattern POST_URN = Pattern.compile("urn:li:(?:share|ugcPost):[0-9]+");

    private LinkedInOutcome() {
    }

    static PublishOutcome of(Exchange exchange, Clock clock, String version) {
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return unanswered.writeOutcome();
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        List<String> secrets = answered.request().secrets();
        JsonNode body = Json.parse(answered.body());
        String code = LinkedInApi.errorCode(body);
        AttemptTrace trace = Traces.of(exchange, code, LinkedInApi.traceId(answered));
        String excerpt = Redactor.excerpt(Json.text(body, "message") != null ? Json.text(body, "message")
                : answered.body(), secrets, 300);
        int status = answered.status();
        if (answered.success()) {
            String urn = answered.header("x-restli-id").orElse(null);
            if (!Texts.blank(urn)) {
                return new PublishOutcome.Published(new ProviderRef(urn, LinkedInApi.postUrl(urn)), null, trace);
            }
            return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                    "LinkedIn answered HTTP " + status + " without an x-restli-id header naming the post.", trace);
        }
        if (status >= 500) {
            return new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR,
                    "LinkedIn answered HTTP " + status + ": " + excerpt + " The post may have been created.", trace);
        }
        if (status == 429) {
            Duration delay = RetryAfter.parse(answered.header("Retry-After"), clock)
                    .orElseGet(() -> untilMidnightUtc(clock));
            return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, code != null ? code : "TOO_MANY_REQUESTS",
                    "LinkedIn daily limit reached: " + excerpt + " LinkedIn's limits reset at midnight UTC.", delay,
                    trace);
        }
        if (status == 422 && "DUPLICATE_POST".equals(code)) {
            Matcher urn = POST_URN.matcher(answered.body() == null ? "" : answered.body());
            ProviderRef earlier = urn.find() ? new ProviderRef(urn.group(), LinkedInApi.postUrl(urn.group())) : null;
            return new PublishOutcome.DuplicateRefused(earlier,
                    "LinkedIn refused the text as a duplicate" + (earlier != null ? " of " + earlier.id() : "")
                            + ": " + excerpt, trace);
        }
        if (status == 426 || "NONEXISTENT_VERSION".equals(code)) {
            // LinkedIn refuses the version before it reads the request: nothing was written
            return new PublishOutcome.VersionRetired(version, code != null ? code : "NONEXISTENT_VERSION",
                    LinkedInVersions.configured(version).retiredReason() + " (LinkedIn-Version " + version
                            + " answered HTTP " + status + ": " + excerpt + ")", trace);
        }
        String detail = rejection(status, code, excerpt, answered.request().target(), version);
        if (LinkedInApi.isAuthLost(status, code)) {
            return new PublishOutcome.AuthLost(code, detail, trace);
        }
        return new PublishOutcome.Failed(FailureKind.REJECTED, code != null ? code : "http_" + status, detail, null,
                trace);
    }

    private static String rejection(int status, String code, String excerpt, String author, String version) {
        String fix;
        if (status == 401) {
            fix = "LinkedIn rejected the access token (expired or revoked). Fix: reconnect LinkedIn and store a new token.";
        } else if (status == 403) {
            fix = "The token may not post as " + author + ". Fix: grant "
                    + (LinkedInApi.isOrganization(author) ? "w_organization_social (and the admin role on the Page)"
                    : "w_member_social") + " and store a new token.";
        } else if ("VERSION_MISSING".equals(code)) {
            fix = "The LinkedIn-Version header was refused. Fix: set " + LinkedInVersions.PROPERTY + ".";
        } else {
            fix = "Fix the content or the connection.";
        }
        return "LinkedIn refused the post (HTTP " + status + (code != null ? ", " + code : "") + "): " + excerpt
                + " " + fix;
    }

    private static Duration untilMidnightUtc(Clock clock) {
        Instant now = clock.instant();
        Instant midnight = LocalDate.ofInstant(now, ZoneOffset.UTC).plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        return Duration.between(now, midnight);
    }
}
