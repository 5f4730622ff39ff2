package io.herald.sandbox.bluesky;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.platform.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/** A blocking client of the simulated PDS's admin endpoints, for tests and demo set-up. */
public final class BlueskySandboxClient {

    private final String base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public BlueskySandboxClient(String baseUrl) {
        this.base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

    /** The PDS address a connection names ({@code pdsUrl}). */
    public String pdsUrl() {
        return base + "/sandbox/bluesky";
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
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private String send(String method, String path, Object body) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
            if (body != null) {
                request.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(Json.MAPPER.writeValueAsString(body)));
            } else {
                request.method(method, HttpRequest.BodyPublishers.noBody());
            }
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw new IllegalStateException("sandbox " + method + " " + path + " answered " + response.statusCode()
                        + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
