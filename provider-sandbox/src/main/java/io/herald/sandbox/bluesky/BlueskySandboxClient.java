package io.herald.sandbox.bluesky;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxClient;
import java.util.Map;

/** A blocking client of the simulated PDS's admin endpoints, for tests and demo set-up. */
public final class BlueskySandboxClient {

    private final SandboxClient sandbox;

    public BlueskySandboxClient(String baseUrl) {
        this.sandbox = new SandboxClient(baseUrl);
    }

    /** The PDS address a connection names ({@code pdsUrl}). */
    public String pdsUrl() {
        return sandbox.baseUrl() + "/sandbox/bluesky";
    }

    /** A new account; returns its DID. */
    public String account(String handle, String appPassword) {
        return Json.parse(send("POST", "/sandbox/_admin/bluesky/accounts",
                Map.of("handle", handle, "appPassword", appPassword))).path("did").asText();
    }

    public void fault(BlueskyFaults.Fault fault) {
        send("POST", "/sandbox/_admin/bluesky/faults", fault);
    }

    public void expireAccess(String handle) {
        send("POST", "/sandbox/_admin/bluesky/accounts/" + encode(handle) + "/expire-access", null);
    }

    public void revoke(String handle) {
        send("POST", "/sandbox/_admin/bluesky/accounts/" + encode(handle) + "/revoke", null);
    }

    /** The account's records ({@code uri}, {@code cid}, {@code value}), by address. */
    public JsonNode records(String handle) {
        return repository(handle).path("records");
    }

    /** How many sessions were made with the account's app password. */
    public long sessionsMade(String handle) {
        return repository(handle).path("sessionsMade").asLong();
    }

    private JsonNode repository(String handle) {
        return Json.parse(send("GET", "/sandbox/_admin/bluesky/accounts/" + encode(handle), null));
    }

    private static String encode(String segment) {
        return SandboxClient.encode(segment);
    }

    private String send(String method, String path, Object body) {
        return sandbox.send(method, path, body);
    }
}
