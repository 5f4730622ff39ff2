package io.herald.adapters.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Redactor;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The calls every OAuth flow makes: an address with its query, a form-encoded or query-string call
 * whose answer is JSON, and the refusal ({@code oauth_failed}) with the provider's reason when it
 * says no. Codes, tokens and client secrets are redacted from every reason.
 */
public final class OAuthCalls {

    private final ProviderHttp http;
    private final Function<JsonNode, String> reasonOf;

    /** {@code reasonOf} reads the provider's reason out of an error body (null when there is none). */
    public OAuthCalls(ProviderHttp http, Function<JsonNode, String> reasonOf) {
        this.http = http;
        this.reasonOf = reasonOf;
    }

    /** {@code base} with {@code params} as its query, in order. */
    public static URI withQuery(String base, Map<String, String> params) {
        String query = form(params);
        return URI.create(query.isEmpty() ? base : base + (base.contains("?") ? "&" : "?") + query);
    }

    /** {@code application/x-www-form-urlencoded} of the non-null {@code params}, in order. */
    public static String form(Map<String, String> params) {
        return params.entrySet().stream().filter(e -> e.getValue() != null)
                .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                .collect(Collectors.joining("&"));
    }

    /**
     * The configuration keys of a connect flow that are not set, in order: {@code unset("…app-id",
     * appId, "…app-secret", appSecret)} names each key whose value is null or blank.
     */
    public static List<String> unset(String... keysAndValues) {
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (keysAndValues[i + 1] == null || keysAndValues[i + 1].isBlank()) {
                missing.add(keysAndValues[i]);
            }
        }
        return missing;
    }

    /** An ordered map that leaves out null values: {@code params("a", x, "b", y)}. */
    public static Map<String, String> params(String... keysAndValues) {
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (keysAndValues[i + 1] != null) {
                params.put(keysAndValues[i], keysAndValues[i + 1]);
            }
        }
        return params;
    }

    /** GET with the parameters in the query; the secrets among them never reach a reason. */
    public CompletableFuture<JsonNode> get(String url, Map<String, String> query, List<String> secrets,
                                           Map<String, String> headers, String what) {
        return call(new OutgoingRequest("GET", withQuery(url, query), headers, null, null, null, what,
                nonNull(secrets)), what);
    }

    /** The same, to an address a workspace admin typed in (the outbound rules of that workspace apply). */
    public CompletableFuture<JsonNode> get(String workspace, String url, List<String> secrets,
                                           Map<String, String> headers, String what) {
        return call(new OutgoingRequest("GET", URI.create(url), headers, null, null, null, what,
                nonNull(secrets)).forWorkspace(workspace), what);
    }

    /** POST of a form; the secrets among its values never reach a reason. */
    public CompletableFuture<JsonNode> postForm(String workspace, String url, Map<String, String> form,
                                                List<String> secrets, String what) {
        return call(new OutgoingRequest("POST", URI.create(url), Map.of("Accept", "application/json"), form(form),
                "application/x-www-form-urlencoded", null, what, nonNull(secrets)).forWorkspace(workspace), what);
    }

    private CompletableFuture<JsonNode> call(OutgoingRequest request, String what) {
        return http.send(request).thenApply(exchange -> {
            if (exchange instanceof Exchange.Unanswered unanswered) {
                throw failed(what + ": no answer (" + unanswered.detail() + ")");
            }
            Exchange.Answered answered = (Exchange.Answered) exchange;
            JsonNode body = parse(answered.body());
            if (!answered.success()) {
                String reason = body == null ? null : reasonOf.apply(body);
                throw failed(what + " was refused (HTTP " + answered.status() + ")"
                        + (reason == null ? "" : ": " + Redactor.excerpt(reason, request.secrets(), 300)));
            }
            if (body == null) {
                throw failed(what + ": the answer was not JSON");
            }
            return body;
        });
    }

    /** The refusal of a connect the provider did not grant. */
    public static HeraldRejection failed(String reason) {
        return new HeraldRejection(ErrorCode.OAUTH_FAILED, reason);
    }

    /** A text field of an answer, or the refusal naming it. */
    public static String required(JsonNode body, String field, String what) {
        JsonNode value = body.get(field);
        if (value == null || !value.isValueNode() || value.asText().isBlank()) {
            throw failed(what + ": the answer has no " + field);
        }
        return value.asText();
    }

    private static JsonNode parse(String body) {
        JsonNode node = Json.parse(body);
        return node.isMissingNode() ? null : node;
    }

    private static List<String> nonNull(List<String> secrets) {
        List<String> kept = new ArrayList<>(secrets.stream().filter(Objects::nonNull).toList());
        return List.copyOf(kept);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
