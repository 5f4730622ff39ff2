package io.herald.sandbox.threads;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxClient;
import java.util.HashMap;
import java.util.Map;

/** A blocking client of the simulated Threads API's admin endpoints, for tests and demo set-up. */
public final class ThreadsSandboxClient {

    private final SandboxClient sandbox;

    public ThreadsSandboxClient(String baseUrl) {
        this.sandbox = new SandboxClient(baseUrl);
    }

    /** The API address Herald is pointed at ({@code herald.channels.threads.base-url}). */
    public String apiUrl() {
        return sandbox.baseUrl() + ThreadsApiController.BASE;
    }

    /** A new user with a long-lived token; returns its id. */
    public String user(String username, String token) {
        return Json.parse(sandbox.send("POST", "/sandbox/_admin/threads/users",
                Map.of("username", username, "token", token))).path("id").asText();
    }

    /**
     * A new user whose token is valid {@code validForSeconds} and {@code ageSeconds} old (null: 60 days,
     * two days); returns its id.
     */
    public String user(String username, String token, Long validForSeconds, Long ageSeconds) {
        Map<String, Object> body = new HashMap<>();
        body.put("username", username);
        body.put("token", token);
        if (validForSeconds != null) {
            body.put("validForSeconds", validForSeconds);
        }
        if (ageSeconds != null) {
            body.put("ageSeconds", ageSeconds);
        }
        return Json.parse(sandbox.send("POST", "/sandbox/_admin/threads/users", body)).path("id").asText();
    }

    /** The user's working tokens, newest first: {@code [{token, issuedAt, expiresAt}]}. */
    public JsonNode tokens(String userId) {
        return Json.parse(sandbox.send("GET", "/sandbox/_admin/threads/users/" + SandboxClient.encode(userId)
                + "/tokens", null));
    }

    /** The token no longer works: Threads answers it 400, code 190 (subcode 460). */
    public void revoke(String token) {
        sandbox.send("POST", "/sandbox/_admin/threads/tokens/revoke", Map.of("token", token));
    }

    /** How the user's account behaves; null keeps a default (200 ms, 250 posts, 1,000 replies, 24 h). */
    public void settings(String userId, Long finishDelayMillis, Integer postLimit, Integer replyLimit,
                         Long windowMillis) {
        Map<String, Object> body = new HashMap<>();
        if (finishDelayMillis != null) {
            body.put("finishDelayMillis", finishDelayMillis);
        }
        if (postLimit != null) {
            body.put("postLimit", postLimit);
        }
        if (replyLimit != null) {
            body.put("replyLimit", replyLimit);
        }
        if (windowMillis != null) {
            body.put("windowMillis", windowMillis);
        }
        sandbox.send("PUT", "/sandbox/_admin/threads/users/" + SandboxClient.encode(userId) + "/settings", body);
    }

    /** The user's threads and replies, deleted ones included ({@code deleted: true}). */
    public JsonNode threads(String userId) {
        return Json.parse(sandbox.send("GET", "/sandbox/_admin/threads/users/" + SandboxClient.encode(userId)
                + "/threads", null));
    }

    /** The user's containers with their status, newest first. */
    public JsonNode containers(String userId) {
        return Json.parse(sandbox.send("GET", "/sandbox/_admin/threads/users/" + SandboxClient.encode(userId)
                + "/containers", null));
    }

    /** The images the API fetched for the user's containers. */
    public JsonNode fetches(String userId) {
        return Json.parse(sandbox.send("GET", "/sandbox/_admin/threads/users/" + SandboxClient.encode(userId)
                + "/fetches", null));
    }

    public void expire(String containerId) {
        sandbox.send("POST", "/sandbox/_admin/threads/containers/" + SandboxClient.encode(containerId) + "/expire",
                null);
    }

    public void fault(ThreadsFaults.Fault fault) {
        sandbox.send("POST", "/sandbox/_admin/threads/faults", fault);
    }
}
