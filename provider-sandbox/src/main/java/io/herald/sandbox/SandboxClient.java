package io.herald.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.platform.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A blocking client of the sandbox's admin and truth API, for tests and demo set-up. */
public final class SandboxClient {

    private final String base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public SandboxClient(String baseUrl) {
        this.base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

    public String baseUrl() {
        return base;
    }

    public String facebookGraphUrl() {
        return base + "/sandbox/facebook/v25.0";
    }

    public String linkedInApiUrl() {
        return base + "/sandbox/linkedin";
    }

    public String wordPressSiteUrl(String site) {
        return base + "/sandbox/wordpress/" + site;
    }

    public void reset() {
        send("POST", "/sandbox/_admin/reset", null);
    }

    public void facebookToken(String token, String pageId, SandboxState.FacebookTokenKind kind) {
        send("POST", "/sandbox/_admin/facebook/tokens", Map.of("token", token, "pageId", pageId, "kind", kind.name()));
    }

    public void linkedInToken(String token, String author, List<String> scopes) {
        send("POST", "/sandbox/_admin/linkedin/tokens", Map.of("token", token, "author", author, "scopes", scopes));
    }

    public void wordPressSite(String site, String username, String applicationPassword, boolean plugin) {
        send("POST", "/sandbox/_admin/wordpress/sites", Map.of("site", site, "username", username,
                "applicationPassword", applicationPassword, "plugin", plugin));
    }

    public void fault(SandboxFault fault) {
        send("POST", "/sandbox/_admin/faults", fault);
    }

    public void latency(long millis) {
        send("PUT", "/sandbox/_admin/latency", Map.of("millis", millis));
    }

    /** Places a post directly, as if made by hand; returns its id. */
    public String seed(String provider, String target, String text, String link, Instant createdAt) {
        java.util.Map<String, Object> body = new java.util.HashMap<>();
        body.put("text", text);
        body.put("link", link);
        body.put("createdAt", createdAt == null ? null : createdAt.toString());
        return Json.parse(send("POST", "/sandbox/_admin/" + provider + "/" + encode(target) + "/posts", body))
                .path("id").asText();
    }

    /** The posts that really exist at the target. */
    public JsonNode truth(String provider, String target) {
        return Json.parse(send("GET", "/sandbox/_truth/" + provider + "/" + encode(target), null));
    }

    /** The images uploaded at the target (photos, LinkedIn images, WordPress attachments). */
    public JsonNode media(String provider, String target) {
        return Json.parse(send("GET", "/sandbox/_truth/" + provider + "/" + encode(target) + "/media", null));
    }

    /** The posts deleted at the target (WordPress: trashed too), as they were before. */
    public JsonNode deleted(String provider, String target) {
        return Json.parse(send("GET", "/sandbox/_truth/" + provider + "/" + encode(target) + "/deleted", null));
    }

    /** A path segment, percent-encoded. */
    public static String encode(String segment) {
        return java.net.URLEncoder.encode(segment, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * Sends one admin or truth call to the sandbox ({@code body} as JSON, or none) and returns the
     * answer's body; an answer of 300 or more is an {@link IllegalStateException}.
     */
    public String send(String method, String path, Object body) {
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
