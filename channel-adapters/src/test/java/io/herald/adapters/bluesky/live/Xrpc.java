package io.herald.adapters.bluesky.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Plain XRPC calls (the JDK's HTTP client, HTTP/1.1) to a PDS or to a proxy in front of it: what a
 * test uses to see what the PDS holds, independently of the adapter under test.
 */
public final class Xrpc {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final URI base;
    private final HttpClient client;

    /** One answer: the status and the JSON body ({@code MissingNode} when the body is empty or not JSON). */
    public record Answer(int status, JsonNode body, String text) {

        /** The XRPC error name ({@code InvalidSwap}, {@code RecordNotFound}, …), or "" on success. */
        public String error() {
            return body.path("error").asText("");
        }

        @Override
        public String toString() {
            return status + " " + (text.length() > 500 ? text.substring(0, 500) + "…" : text);
        }
    }

    public Xrpc(URI base) {
        this.base = base;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /** The same PDS through another address (a proxy in front of it). */
    public Xrpc via(URI other) {
        return new Xrpc(other);
    }

    /** A procedure with a JSON body; {@code bearer} may be null. */
    public Answer post(String method, String bearer, Object body) throws IOException, InterruptedException {
        return post(method, bearer, body, TIMEOUT);
    }

    /** A procedure with a JSON body and the client's own timeout, after which the client gives up. */
    public Answer post(String method, String bearer, Object body, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("/xrpc/" + method))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
        return send(authorized(request, bearer));
    }

    /** A procedure without a body ({@code refreshSession}, {@code deleteSession}). */
    public Answer post(String method, String bearer) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("/xrpc/" + method))
                .timeout(TIMEOUT)
                .POST(HttpRequest.BodyPublishers.noBody());
        return send(authorized(request, bearer));
    }

    /** Raw bytes with their content type ({@code uploadBlob}). */
    public Answer postBytes(String method, String bearer, String contentType, byte[] bytes)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("/xrpc/" + method))
                .timeout(TIMEOUT)
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes));
        return send(authorized(request, bearer));
    }

    /** A query; parameters in the given order, {@code bearer} may be null. */
    public Answer get(String method, String bearer, Map<String, String> parameters)
            throws IOException, InterruptedException {
        String query = parameters.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        base.resolve("/xrpc/" + method + (query.isEmpty() ? "" : "?" + query)))
                .timeout(TIMEOUT)
                .GET();
        return send(authorized(request, bearer));
    }

    /** {@code com.atproto.repo.getRecord} of one record (no authentication needed). */
    public Answer getRecord(String did, String collection, String rkey) throws IOException, InterruptedException {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("repo", did);
        parameters.put("collection", collection);
        parameters.put("rkey", rkey);
        return get("com.atproto.repo.getRecord", null, parameters);
    }

    /** {@code com.atproto.repo.listRecords}, the first page of up to 100. */
    public Answer listRecords(String did, String collection) throws IOException, InterruptedException {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("repo", did);
        parameters.put("collection", collection);
        parameters.put("limit", "100");
        return get("com.atproto.repo.listRecords", null, parameters);
    }

    private static HttpRequest authorized(HttpRequest.Builder request, String bearer) {
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return request.build();
    }

    private Answer send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        JsonNode body;
        try {
            body = response.body().isEmpty() ? MissingNode.getInstance() : JSON.readTree(response.body());
        } catch (IOException notJson) {
            body = MissingNode.getInstance();
        }
        return new Answer(response.statusCode(), body == null ? MissingNode.getInstance() : body, response.body());
    }
}
