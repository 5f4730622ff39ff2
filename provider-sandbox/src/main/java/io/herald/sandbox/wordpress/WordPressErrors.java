package io.herald.sandbox.wordpress;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.ProviderFaults;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxFault;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

/** The WordPress REST API's error bodies: {@code code}, {@code message} and {@code data.status}. */
final class WordPressErrors {

    /** What a WordPress site answers to the injected faults. */
    static final ProviderFaults.Answers FAULTS = new ProviderFaults.Answers() {
        @Override
        public ResponseEntity<String> serverError() {
            return criticalError();
        }

        @Override
        public ResponseEntity<String> rateLimited(SandboxFault fault) {
            return WordPressErrors.rateLimited(fault);
        }
    };

    private WordPressErrors() {
    }

    static ResponseEntity<String> noRoute() {
        return error(404, "rest_no_route", "No route was found matching the URL and request method.");
    }

    static ResponseEntity<String> invalidJson() {
        return error(400, "rest_invalid_json", "Invalid JSON body passed.");
    }

    static ResponseEntity<String> forbiddenContext() {
        return error(401, "rest_forbidden_context", "Sorry, you are not allowed to edit posts in this post type.");
    }

    static ResponseEntity<String> cannotCreate() {
        return error(401, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user.");
    }

    static ResponseEntity<String> cannotUpload() {
        return error(401, "rest_cannot_create", "Sorry, you are not allowed to upload media on this site.");
    }

    static ResponseEntity<String> cannotEdit() {
        return error(401, "rest_cannot_edit", "Sorry, you are not allowed to edit this post.");
    }

    static ResponseEntity<String> cannotDelete() {
        return error(401, "rest_cannot_delete", "Sorry, you are not allowed to delete this post.");
    }

    static ResponseEntity<String> invalidId() {
        return error(404, "rest_post_invalid_id", "Invalid post ID.");
    }

    static ResponseEntity<String> invalidParam(String param, String message) {
        ObjectNode body = Json.object().put("code", "rest_invalid_param").put("message", "Invalid parameter(s): " + param);
        body.putObject("data").put("status", 400).putObject("params").put(param, message);
        return Replies.json(400, body, new HttpHeaders());
    }

    static ResponseEntity<String> rateLimited(SandboxFault fault) {
        HttpHeaders headers = new HttpHeaders();
        if (fault.retryAfterSeconds() > 0) {
            headers.set("Retry-After", Long.toString(fault.retryAfterSeconds()));
        }
        return Replies.json(429, Json.object().put("code", "too_many_requests")
                .put("message", "Too many requests.").set("data", Json.object().put("status", 429)), headers);
    }

    static ResponseEntity<String> criticalError() {
        ObjectNode body = Json.object().put("code", "internal_server_error")
                .put("message", "<p>There has been a critical error on this website.</p>");
        body.putObject("data").put("status", 500);
        body.putArray("additional_errors");
        return Replies.json(500, body, new HttpHeaders());
    }

    static ResponseEntity<String> error(int status, String code, String message) {
        ObjectNode body = Json.object().put("code", code).put("message", message);
        body.putObject("data").put("status", status);
        return Replies.json(status, body, new HttpHeaders());
    }
}
