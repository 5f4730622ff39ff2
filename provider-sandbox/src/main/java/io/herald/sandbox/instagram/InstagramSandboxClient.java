package io.herald.sandbox.instagram;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxClient;
import java.util.HashMap;
import java.util.Map;

/** A blocking client of the simulated Instagram's admin endpoints, for tests and demo set-up. */
public final class InstagramSandboxClient {

    private final SandboxClient sandbox;

    public InstagramSandboxClient(String baseUrl) {
        this.sandbox = new SandboxClient(baseUrl);
    }

    /** The Graph base URL Herald is configured with ({@code herald.channels.instagram.graph-base-url}). */
    public String graphBaseUrl() {
        return sandbox.baseUrl() + InstagramApiController.BASE;
    }

    /** A new account whose token is valid 60 days and two days old; returns its id. */
    public String account(String username, String token) {
        return account(username, token, null, null);
    }

    /** A new account whose token is valid {@code validForSeconds} and {@code ageSeconds} old; returns its id. */
    public String account(String username, String token, Long validForSeconds, Long ageSeconds) {
        Map<String, Object> body = new HashMap<>();
        body.put("username", username);
        body.put("token", token);
        body.put("validForSeconds", validForSeconds);
        body.put("ageSeconds", ageSeconds);
        return Json.parse(sandbox.send("POST", InstagramAdminController.ADMIN + "/accounts", body)).path("id")
                .asText();
    }

    public JsonNode media(String accountId) {
        return Json.parse(sandbox.send("GET", InstagramAdminController.ADMIN + "/accounts/"
                + SandboxClient.encode(accountId) + "/media", null));
    }

    public JsonNode containers(String accountId) {
        return Json.parse(sandbox.send("GET", InstagramAdminController.ADMIN + "/accounts/"
                + SandboxClient.encode(accountId) + "/containers", null));
    }

    public JsonNode tokens(String accountId) {
        return Json.parse(sandbox.send("GET", InstagramAdminController.ADMIN + "/accounts/"
                + SandboxClient.encode(accountId) + "/tokens", null));
    }

    public void publishingLimit(String accountId, int quotaTotal, int durationSeconds) {
        sandbox.send("PUT", InstagramAdminController.ADMIN + "/accounts/" + SandboxClient.encode(accountId)
                + "/publishing-limit", Map.of("quotaTotal", quotaTotal, "durationSeconds", durationSeconds));
    }

    public void processing(long millis) {
        sandbox.send("PUT", InstagramAdminController.ADMIN + "/processing", Map.of("millis", millis));
    }

    public void fault(String accountId, InstagramAccounts.Fault fault, long delayMillis, int times) {
        sandbox.send("POST", InstagramAdminController.ADMIN + "/faults",
                new InstagramAccounts.FaultSpec(accountId, fault, delayMillis, times));
    }
}
