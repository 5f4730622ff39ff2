package io.herald.sandbox.mastodon;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxClient;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A blocking client of the simulated instance's admin endpoints, for tests and demo set-up. */
public final class MastodonSandboxClient {

    private final SandboxClient sandbox;

    public MastodonSandboxClient(String baseUrl) {
        this.sandbox = new SandboxClient(baseUrl);
    }

    /** The instance address a connection names ({@code instanceUrl}). */
    public String instanceUrl() {
        return sandbox.baseUrl() + MastodonApiController.BASE;
    }

    /** A new account with every scope; returns its id. */
    public String account(String username, String token) {
        return account(username, token, List.of());
    }

    /** A new account whose token has only {@code scopes}; returns its id. */
    public String account(String username, String token, List<String> scopes) {
        return Json.parse(sandbox.send("POST", "/sandbox/_admin/mastodon/accounts",
                Map.of("username", username, "token", token, "scopes", scopes))).path("id").asText();
    }

    public void revoke(String accountId) {
        sandbox.send("POST", "/sandbox/_admin/mastodon/accounts/" + SandboxClient.encode(accountId) + "/revoke", null);
    }

    /** The account's statuses, deleted ones included ({@code deleted: true}), newest first. */
    public JsonNode statuses(String accountId) {
        return Json.parse(sandbox.send("GET", "/sandbox/_admin/mastodon/accounts/" + SandboxClient.encode(accountId)
                + "/statuses", null));
    }

    /** Places a status as if written by hand; returns its id. */
    public String seed(String accountId, String text, String inReplyToId, Instant createdAt) {
        Map<String, Object> body = new HashMap<>();
        body.put("text", text);
        body.put("inReplyToId", inReplyToId);
        body.put("createdAt", createdAt == null ? null : createdAt.toString());
        return Json.parse(sandbox.send("POST", "/sandbox/_admin/mastodon/accounts/" + SandboxClient.encode(accountId)
                + "/statuses", body)).path("id").asText();
    }

    /** Removes a status as the instance's moderators would: reading it then answers 404. */
    public void remove(String statusId) {
        sandbox.send("DELETE", "/sandbox/_admin/mastodon/statuses/" + SandboxClient.encode(statusId), null);
    }

    public void fault(MastodonFaults.Fault fault) {
        sandbox.send("POST", "/sandbox/_admin/mastodon/faults", fault);
    }

    /** -1: uploads ready at once; n ≥ 0: answered 202, then 206 to the next n checks. */
    public void processing(String accountId, int checks) {
        sandbox.send("PUT", "/sandbox/_admin/mastodon/accounts/" + SandboxClient.encode(accountId)
                + "/media-processing", Map.of("checks", checks));
    }

    public void repeatedKeyError(boolean enabled) {
        sandbox.send("PUT", "/sandbox/_admin/mastodon/repeated-key-error", Map.of("enabled", enabled));
    }
}
