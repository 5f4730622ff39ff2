package io.herald.sandbox.facebook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.ProviderFaults;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxFault;
import java.util.UUID;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

/** The Graph API's error bodies and its trace and usage headers. */
final class FacebookErrors {

    /** What the Graph API answers to the injected faults. */
    static final ProviderFaults.Answers FAULTS = new ProviderFaults.Answers() {
        @Override
        public ResponseEntity<String> serverError() {
            return FacebookErrors.serviceError();
        }

        @Override
        public ResponseEntity<String> rateLimited(SandboxFault fault) {
            return FacebookErrors.rateLimited(fault);
        }

        @Override
        public ResponseEntity<String> invalid() {
            return error(400, 100, null, "(#100) Invalid parameter: the message is not allowed on this Page");
        }
    };

    private FacebookErrors() {
    }

    /** TOKEN_ERROR on a write. */
    static ResponseEntity<String> expiredOnWrite() {
        return error(400, 190, 463, "Error validating access token: Session has expired on Sunday, 29-Nov-26 09:00:00 PST. "
                + "The current time is Sunday, 29-Nov-26 10:00:00 PST.");
    }

    /** TOKEN_ERROR on a read. */
    static ResponseEntity<String> expiredOnRead() {
        return error(400, 190, 463, "Error validating access token: Session has expired.");
    }

    /** Graph API's answers for a token that no longer works (code 190, docs/channels.md#facebook-pages). */
    static ResponseEntity<String> lapsedToken(String kind) {
        return switch (kind) {
            case "PASSWORD_CHANGED" -> error(400, 190, 460, "Error validating access token: The session has been "
                    + "invalidated because the user changed their password or Facebook has changed the session for "
                    + "security reasons.");
            case "LOGGED_OUT" -> error(400, 190, 467,
                    "Error validating access token: The session is invalid because the user logged out.");
            case "APP_REMOVED", "REVOKED" -> error(400, 190, 458,
                    "Error validating access token: The user has not authorized application 1234567890.");
            default -> error(400, 190, 463, "Error validating access token: Session has expired on Tuesday, "
                    + "01-Dec-26 02:00:00 PST. The current time is Tuesday, 01-Dec-26 03:00:00 PST.");
        };
    }

    /** Facebook's answer for an id that names nothing (any more): GraphMethodException 100/33. */
    static ResponseEntity<String> doesNotExist(String verb, String id) {
        return Replies.json(400, errorBody("GraphMethodException", 100, 33, "Unsupported " + verb
                + " request. Object with ID '" + id + "' does not exist, cannot be loaded due to missing permissions,"
                + " or does not support this operation. Please read the Graph API documentation at"
                + " https://developers.facebook.com/docs/graph-api"), traceHeaders());
    }

    static ResponseEntity<String> rateLimited(SandboxFault fault) {
        int code = fault.providerCode() == null ? 32 : fault.providerCode();
        // Only the Page-level limits report estimated_time_to_regain_access in the Page usage header.
        boolean pageLevel = code == 32 || code == 80001;
        long minutes = pageLevel ? (fault.retryAfterSeconds() + 59) / 60 : 0;
        HttpHeaders headers = usageHeaders(fault.target(), minutes);
        headers.set("x-app-usage", "{\"call_count\":100,\"total_time\":40,\"total_cputime\":38}");
        if (code == 4 && fault.retryAfterSeconds() > 0) {
            // The application-level limit has no Page usage header to say when access returns.
            headers.set("Retry-After", Long.toString(fault.retryAfterSeconds()));
        }
        String message = switch (code) {
            case 4 -> "(#4) Application request limit reached";
            case 17 -> "(#17) User request limit reached";
            case 613 -> "(#613) Calls to this api have exceeded the rate limit.";
            case 80001 -> "(#80001) There have been too many calls to this Page account. Wait a bit and try again.";
            default -> "(#32) Page request limit reached";
        };
        return error(code == 4 ? 403 : 400, code, null, message, headers);
    }

    static ResponseEntity<String> serviceError() {
        ObjectNode body = errorBody(2, null, "An unexpected error has occurred. Please retry your request later.");
        ((ObjectNode) body.get("error")).put("is_transient", true);
        return Replies.json(500, body, traceHeaders());
    }

    static ResponseEntity<String> error(int status, int code, Integer subcode, String message) {
        return error(status, code, subcode, message, traceHeaders());
    }

    private static ResponseEntity<String> error(int status, int code, Integer subcode, String message,
                                                HttpHeaders headers) {
        return Replies.json(status, errorBody(code, subcode, message), headers);
    }

    private static ObjectNode errorBody(int code, Integer subcode, String message) {
        return errorBody("OAuthException", code, subcode, message);
    }

    private static ObjectNode errorBody(String type, int code, Integer subcode, String message) {
        ObjectNode body = Json.object();
        ObjectNode error = body.putObject("error");
        error.put("message", message);
        error.put("type", type);
        error.put("code", code);
        if (subcode != null) {
            error.put("error_subcode", subcode);
        }
        error.put("fbtrace_id", traceId());
        return body;
    }

    private static String traceId() {
        return "A" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    private static HttpHeaders traceHeaders() {
        HttpHeaders headers = new HttpHeaders();
        headers.set("x-fb-trace-id", traceId());
        headers.set("x-fb-rev", "1029384756");
        headers.set("facebook-api-version", "v25.0");
        return headers;
    }

    /** The trace headers and the usage headers of an answer about the Page. */
    static HttpHeaders usageHeaders(String pageId, long minutesToRegain) {
        HttpHeaders headers = traceHeaders();
        headers.set("x-app-usage", "{\"call_count\":1,\"total_time\":1,\"total_cputime\":1}");
        headers.set("x-business-use-case-usage", "{\"" + pageId + "\":[{\"type\":\"pages\",\"call_count\":"
                + (minutesToRegain > 0 ? 100 : 1) + ",\"total_cputime\":1,\"total_time\":1,"
                + "\"estimated_time_to_regain_access\":" + minutesToRegain + "}]}");
        return headers;
    }

    /** A 200 with the usage headers of the Page. */
    static ResponseEntity<String> ok(ObjectNode body, String pageId) {
        return ok(body, pageId, 1);
    }

    /** A 200 whose {@code x-app-usage} says the app has used {@code percent} of its budget. */
    static ResponseEntity<String> ok(ObjectNode body, String pageId, int percent) {
        HttpHeaders headers = usageHeaders(pageId, 0);
        headers.set("x-app-usage", "{\"call_count\":" + percent + ",\"total_time\":1,\"total_cputime\":1}");
        return Replies.json(200, body, headers);
    }

    /** A post past the Page's budget: the application limit (code 4), and the seconds until its window ends. */
    static ResponseEntity<String> budgetSpent(String pageId, FacebookBudgets.Use use) {
        HttpHeaders headers = usageHeaders(pageId, 0);
        headers.set("x-app-usage", "{\"call_count\":100,\"total_time\":40,\"total_cputime\":38}");
        long seconds = Math.max(1, java.time.Duration.between(java.time.Instant.now(), use.windowEnd()).toSeconds()
                + 1);
        headers.set("Retry-After", Long.toString(seconds));
        return error(403, 4, null, "(#4) Application request limit reached", headers);
    }
}
