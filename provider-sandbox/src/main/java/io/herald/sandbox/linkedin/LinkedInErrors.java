package io.herald.sandbox.linkedin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.ProviderFaults;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxFault;
import java.util.UUID;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

/** LinkedIn's error bodies and its trace headers. */
final class LinkedInErrors {

    /** What LinkedIn answers to the injected faults. */
    static final ProviderFaults.Answers FAULTS = new ProviderFaults.Answers() {
        @Override
        public ResponseEntity<String> serverError() {
            return LinkedInErrors.serverError();
        }

        @Override
        public ResponseEntity<String> rateLimited(SandboxFault fault) {
            return LinkedInErrors.rateLimited(fault);
        }
    };

    private LinkedInErrors() {
    }

    static ResponseEntity<String> invalidToken() {
        return error(401, 65600, "INVALID_ACCESS_TOKEN", "Invalid access token");
    }

    static ResponseEntity<String> accessDenied(String permission) {
        return error(403, 100, "ACCESS_DENIED", "Not enough permissions to access: " + permission);
    }

    static ResponseEntity<String> notFound() {
        return error(404, 0, "NOT_FOUND", "Not Found");
    }

    static ResponseEntity<String> rateLimited(SandboxFault fault) {
        HttpHeaders headers = traceHeaders();
        if (fault.retryAfterSeconds() > 0) {
            headers.set("Retry-After", Long.toString(fault.retryAfterSeconds()));
        }
        return Replies.json(429, errorBody(429, 101, "TOO_MANY_REQUESTS",
                "Resource level throttle APPLICATION DAY limit for calls to this resource is reached."), headers);
    }

    static ResponseEntity<String> serverError() {
        return Replies.json(500, errorBody(500, 0, null, "Internal Server Error"), traceHeaders());
    }

    static ResponseEntity<String> error(int status, int serviceErrorCode, String code, String message) {
        return Replies.json(status, errorBody(status, serviceErrorCode, code, message), traceHeaders());
    }

    /** A 422 on the post's content, naming the field and LinkedIn's code for what is wrong with it. */
    static ResponseEntity<String> refusedInput(String path, String message, String description, String code,
                                               String fieldPath) {
        ObjectNode body = Json.object();
        body.put("message", "ERROR :: " + path + " :: " + message);
        ObjectNode input = body.putObject("errorDetails").putArray("inputErrors").addObject()
                .put("description", description)
                .put("code", code)
                .putObject("input");
        if (fieldPath != null) {
            input.putObject("inputPath").put("fieldPath", fieldPath);
        }
        body.put("status", 422);
        return Replies.json(422, body, traceHeaders());
    }

    private static ObjectNode errorBody(int status, int serviceErrorCode, String code, String message) {
        ObjectNode body = Json.object();
        body.put("status", status);
        if (serviceErrorCode > 0) {
            body.put("serviceErrorCode", serviceErrorCode);
        }
        if (code != null) {
            body.put("code", code);
        }
        body.put("message", message);
        return body;
    }

    static HttpHeaders traceHeaders() {
        HttpHeaders headers = new HttpHeaders();
        headers.set("x-li-uuid", UUID.randomUUID().toString().replace("-", "").substring(0, 22));
        headers.set("x-li-fabric", "prod-lor1");
        return headers;
    }
}
