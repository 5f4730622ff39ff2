package io.herald.adapters.instagram;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.port.ChannelConnection;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * Where the Instagram Graph API is and how a call carries the connection's token: as a Bearer
 * header, never in the form body or the query, so nothing logged or fingerprinted can contain it.
 */
record InstagramGraph(URI base) {

    static InstagramGraph at(String baseUrl) {
        return new InstagramGraph(URI.create(baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1)
                : baseUrl));
    }

    URI uri(String path) {
        return URI.create(base + path);
    }

    static String segment(String id) {
        return Forms.enc(id == null ? "" : id).replace("+", "%20");
    }

    static String token(ChannelConnection connection) {
        return connection.secrets(InstagramSecrets.class).accessToken();
    }

    static String userId(ChannelConnection connection) {
        return connection.settings(InstagramSettings.class).igUserId();
    }

    static List<String> secretsOf(ChannelConnection connection) {
        return java.util.Collections.singletonList(token(connection));
    }

    OutgoingRequest get(ChannelConnection connection, String pathAndQuery) {
        return new OutgoingRequest("GET", uri(pathAndQuery), bearer(token(connection)), null, null, null,
                userId(connection), secretsOf(connection));
    }

    OutgoingRequest post(ChannelConnection connection, String path, Map<String, String> form, String fingerprint) {
        return new OutgoingRequest("POST", uri(path), bearer(token(connection)), Forms.encode(form),
                "application/x-www-form-urlencoded", fingerprint, userId(connection), secretsOf(connection));
    }

    static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token, "Accept", "application/json");
    }

    static String traceId(Exchange.Answered answered, JsonNode body) {
        String fromBody = Json.text(body.path("error"), "fbtrace_id");
        return fromBody != null ? fromBody : answered.header("x-fb-trace-id").orElse(null);
    }
}
