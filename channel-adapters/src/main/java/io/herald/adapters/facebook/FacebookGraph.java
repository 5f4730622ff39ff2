package io.herald.adapters.facebook;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Texts;
import io.herald.adapters.port.ChannelConnection;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where the Graph API is and how a call carries the connection's tokens: as a Bearer header,
 * never in the form body or the query, so nothing that is logged or fingerprinted can contain one.
 */
record FacebookGraph(URI base) {

    static FacebookGraph at(String baseUrl) {
        return new FacebookGraph(URI.create(baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1)
                : baseUrl));
    }

    /** The Graph URI of {@code path} (with its query, if any), below the configured version. */
    URI uri(String path) {
        return URI.create(base + path);
    }

    /** An id (a Page's, a post's) as a path segment; ids are numeric, but a mistyped one must not break the URI. */
    static String segment(String id) {
        return Forms.enc(id == null ? "" : id).replace("+", "%20");
    }

    static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token, "Accept", "application/json");
    }

    /** The token for reading: the separate read token where one is stored, else the Page token. */
    static String readToken(ChannelConnection connection) {
        String read = connection.secrets(FacebookSecrets.class).readAccessToken();
        return Texts.blank(read) ? connection.secrets(FacebookSecrets.class).pageAccessToken() : read;
    }

    /** Every token of the connection, for redaction. */
    static List<String> secretsOf(ChannelConnection connection) {
        List<String> secrets = new ArrayList<>();
        secrets.add(connection.secrets(FacebookSecrets.class).pageAccessToken());
        secrets.add(connection.secrets(FacebookSecrets.class).readAccessToken());
        return secrets;
    }

    static String traceId(Exchange.Answered answered, JsonNode body) {
        String fromBody = Json.text(body.path("error"), "fbtrace_id");
        return fromBody != null ? fromBody : answered.header("x-fb-trace-id").orElse(null);
    }
}
