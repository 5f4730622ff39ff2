package io.herald.adapters.threads;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.Texts;
import io.herald.adapters.port.ChannelConnection;
import io.herald.contracts.publication.Content;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The wire of the Threads API: calls with the connection's token as a bearer header (never in the
 * address), form-encoded writes, the Graph error envelope ({@code error.code}, {@code
 * error_subcode}, {@code message}, {@code type: "THApiException"}), and the post's text.
 */
final class ThreadsApi {

    /** Threads counts a post's text in characters (code points), at most 500. */
    static final int MAX_TEXT = 500;
    static final int MAX_CAROUSEL = 20;
    /** Threads' {@code timestamp}: {@code 2026-12-06T01:02:03+0000}. */
    private static final DateTimeFormatter META_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxx");

    private final ProviderHttp http;
    private final String baseUrl;

    ThreadsApi(ProviderHttp http, String baseUrl) {
        this.http = http;
        this.baseUrl = baseUrl;
    }

    Clock clock() {
        return http.clock();
    }

    CompletableFuture<Exchange> send(OutgoingRequest request) {
        return http.send(request);
    }

    static String token(ChannelConnection connection) {
        return connection.secrets(ThreadsSecrets.class).accessToken();
    }

    static String user(ChannelConnection connection) {
        return connection.settings(ThreadsSettings.class).threadsUserId();
    }

    /** A form-encoded write with the token. */
    OutgoingRequest write(ChannelConnection connection, String method, String path, Map<String, String> params,
                          String fingerprint, String target) {
        String body = params.isEmpty() ? null : Forms.encode(params);
        return new OutgoingRequest(method, URI.create(baseUrl + path), headers(connection), body,
                body == null ? null : "application/x-www-form-urlencoded", fingerprint, target,
                List.of(token(connection)));
    }

    /** A read with the token; {@code query} already encoded (without {@code ?}), or empty. */
    OutgoingRequest get(ChannelConnection connection, String path, String query, String target) {
        return new OutgoingRequest("GET", URI.create(baseUrl + path + (query.isEmpty() ? "" : "?" + query)),
                headers(connection), null, null, null, target, List.of(token(connection)));
    }

    private static Map<String, String> headers(ChannelConnection connection) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + token(connection));
        headers.put("Accept", "application/json");
        return headers;
    }

    static String enc(String value) {
        return Forms.enc(value);
    }

    /** The text of a post: the body, and the link after it unless the body holds it. */
    static String text(Content content) {
        String body = content.body() == null ? "" : content.body().strip();
        String link = content.link();
        if (Texts.blank(link) || body.contains(link)) {
            return body;
        }
        return body.isEmpty() ? link : body + "\n\n" + link;
    }

    static int length(String text) {
        return text.codePointCount(0, text.length());
    }

    /** The error's {@code code}, or -1. */
    static int code(Exchange.Answered answered) {
        return Json.parse(answered.body()).path("error").path("code").asInt(-1);
    }

    /** The error's {@code error_subcode}, or -1. */
    static int subcode(Exchange.Answered answered) {
        return Json.parse(answered.body()).path("error").path("error_subcode").asInt(-1);
    }

    /** {@code code/subcode}, e.g. {@code 24/4279009}, or {@code http_<status>} without an envelope. */
    static String providerCode(Exchange.Answered answered) {
        int code = code(answered);
        if (code < 0) {
            return "http_" + answered.status();
        }
        int subcode = subcode(answered);
        return subcode < 0 ? Integer.toString(code) : code + "/" + subcode;
    }

    /** The error's message, redacted and shortened, or the status. */
    static String message(Exchange.Answered answered) {
        String message = Json.text(Json.parse(answered.body()).path("error"), "message");
        return message == null ? "HTTP " + answered.status()
                : Redactor.excerpt(message, answered.request().secrets(), 300);
    }

    static String describe(Exchange exchange) {
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return unanswered.detail();
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        return "HTTP " + answered.status() + " " + providerCode(answered) + ": " + message(answered);
    }

    static boolean ok(Exchange exchange) {
        return exchange instanceof Exchange.Answered answered && answered.status() == 200 && !answered.bodyTooLarge();
    }

    static JsonNode body(Exchange exchange) {
        return Json.parse(((Exchange.Answered) exchange).body());
    }

    /** 190: the token expired or was revoked. */
    static boolean tokenLost(Exchange exchange) {
        return exchange instanceof Exchange.Answered answered && (answered.status() == 401 || code(answered) == 190);
    }

    /** 100/33: the object does not exist (or is not this token's to see). */
    static boolean doesNotExist(Exchange exchange) {
        return exchange instanceof Exchange.Answered answered && code(answered) == 100 && subcode(answered) == 33;
    }

    static Instant timestamp(JsonNode node) {
        String at = Json.text(node, "timestamp");
        if (at == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(at, META_TIME).toInstant();
        } catch (DateTimeException notMeta) {
            try {
                return OffsetDateTime.parse(at).toInstant();
            } catch (DateTimeException unreadable) {
                return null;
            }
        }
    }
}
