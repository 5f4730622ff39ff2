package io.herald.adapters.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.Texts;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.contracts.publication.Content;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * The versioned LinkedIn API as every step speaks it: where it is, the headers of each call (the
 * token as a Bearer header, the configured {@code LinkedIn-Version}), the commentary Herald writes,
 * and what LinkedIn's error bodies and refusals mean.
 */
record LinkedInApi(URI base, String version) {

    static LinkedInApi at(String baseUrl, String version) {
        return new LinkedInApi(URI.create(baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1)
                : baseUrl), version);
    }

    URI uri(String path) {
        return URI.create(base + path);
    }

    /** The author's posts, newest first, from {@code start} on. */
    URI byAuthor(String author, int start, int count) {
        return uri("/rest/posts?author=" + Forms.enc(author) + "&q=author&count=" + count + "&start=" + start
                + "&sortBy=CREATED");
    }

    /** A new map each time: a call may add its own (e.g. {@code X-RestLi-Method}). */
    Map<String, String> headers(String token) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Authorization", "Bearer " + token);
        headers.put("LinkedIn-Version", version);
        headers.put("X-Restli-Protocol-Version", "2.0.0");
        headers.put("Accept", "application/json");
        return headers;
    }

    /** A shared link goes on its own line after the text (LinkedIn previews it), so read-back compares one text. */
    static String commentaryOf(Content content) {
        String body = content.body() == null ? "" : content.body();
        if (Texts.blank(content.link())) {
            return body;
        }
        return body.isBlank() ? content.link() : body + "\n\n" + content.link();
    }

    static String postUrl(String urn) {
        return "https://www.linkedin.com/feed/update/" + urn + "/";
    }

    static String traceId(Exchange.Answered answered) {
        return answered.header("x-li-uuid").or(() -> answered.header("x-li-request-id")).orElse(null);
    }

    static boolean isOrganization(String author) {
        return author != null && author.startsWith("urn:li:organization:");
    }

    /** The error code of a LinkedIn error body: the input error's code where there is one. */
    static String errorCode(JsonNode body) {
        for (JsonNode input : body.path("errorDetails").path("inputErrors")) {
            String code = Json.text(input, "code");
            if (code != null) {
                return code;
            }
        }
        String code = Json.text(body, "code");
        if (code != null) {
            return code;
        }
        return Json.text(body, "serviceErrorCode");
    }

    /** LinkedIn's answers for a token that no longer works (docs/channels.md#linkedin): all three ask for a new token. */
    static boolean isAuthLost(int status, String code) {
        return status == 401 && ("EXPIRED_ACCESS_TOKEN".equals(code) || "REVOKED_ACCESS_TOKEN".equals(code)
                || "INVALID_ACCESS_TOKEN".equals(code));
    }

    /** What a refused read of the author's posts (or a post's comments) means. */
    static ReadBackOutcome readFailure(Exchange.Answered answered, JsonNode body, String author) {
        String code = errorCode(body);
        String message = Redactor.excerpt(Json.text(body, "message"), answered.request().secrets(), 200);
        if (answered.status() == 403 || "ACCESS_DENIED".equals(code)) {
            return new ReadBackOutcome.Unavailable(missingReadScope(author, message));
        }
        if (answered.status() == 401) {
            String reason = "LinkedIn rejected the access token (" + message + "). Reconnect LinkedIn and store a new"
                    + " token.";
            return isAuthLost(401, code) ? new ReadBackOutcome.AuthLost(code, reason)
                    : new ReadBackOutcome.Unavailable(reason);
        }
        return new ReadBackOutcome.Unknown("LinkedIn did not return the author's posts (HTTP " + answered.status()
                + (code != null ? ", " + code : "") + "): " + message);
    }

    static String missingReadScope(String author, String message) {
        String scope = isOrganization(author) ? "r_organization_social" : "r_member_social";
        return "missing " + scope + ": LinkedIn refused to read the author's posts (" + message
                + "). Grant " + scope + " to the token to enable read-back.";
    }
}
