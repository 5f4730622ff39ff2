package io.herald.adapters.mastodon;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.RetryAfter;
import io.herald.adapters.http.Texts;
import io.herald.adapters.port.ChannelConnection;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationStep;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The wire of one Mastodon instance: requests with the connection's bearer token (and every call
 * made for the connection's workspace, since the instance is an address the workspace named), the
 * {@code Idempotency-Key} of a create, the account the token belongs to, and how the instance's
 * errors and rate-limit headers read.
 */
final class MastodonApi {

    /** The account a token belongs to, or the answer that did not name it. */
    sealed interface Account {
    }

    record Known(String id) implements Account {
    }

    /** {@code verify_credentials} did not name the account: its exchange says why. */
    record NotKnown(Exchange exchange) implements Account {
    }

    private final ProviderHttp http;
    /** The account each token belongs to, where the settings do not name it; memory only. */
    private final Map<String, String> accounts = new ConcurrentHashMap<>();

    MastodonApi(ProviderHttp http) {
        this.http = http;
    }

    ProviderHttp http() {
        return http;
    }

    Clock clock() {
        return http.clock();
    }

    /**
     * The instance's key for a create: the publication and its step, the same on every attempt
     * ({@code pub_…:create_post}, {@code pub_…:first_comment}).
     */
    static String idempotencyKey(PublicationId publication, PublicationStep step) {
        return publication.value() + ":" + step.wireName();
    }

    static String token(ChannelConnection connection) {
        return connection.secrets(MastodonSecrets.class).accessToken();
    }

    static String instance(ChannelConnection connection) {
        return connection.settings(MastodonSettings.class).instanceUrl();
    }

    static URI uri(ChannelConnection connection, String path) {
        return URI.create(instance(connection) + path);
    }

    /** A call with the connection's token; {@code extra} headers (the idempotency key) added. */
    static OutgoingRequest request(ChannelConnection connection, String method, String path, String body,
                                   String contentType, String fingerprint, String target,
                                   Map<String, String> extra, byte[] binary) {
        Map<String, String> headers = new LinkedHashMap<>(extra);
        headers.put("Authorization", "Bearer " + token(connection));
        headers.put("Accept", "application/json");
        return new OutgoingRequest(method, uri(connection, path), headers, body, contentType, fingerprint, target,
                List.of(token(connection)), binary, workspace(connection));
    }

    static OutgoingRequest get(ChannelConnection connection, String path, String target) {
        return request(connection, "GET", path, null, null, null, target, Map.of(), null);
    }

    static String workspace(ChannelConnection connection) {
        return connection.workspaceId() == null ? null : connection.workspaceId().value();
    }

    CompletableFuture<Exchange> send(OutgoingRequest request) {
        return http.send(request);
    }

    /** The instance's rate-limit headers on an answer, for the connection's budget. */
    void reportUsage(ChannelConnection connection, Exchange exchange) {
        http.reportUsage(connection, exchange, answered -> io.herald.adapters.http.RateLimitHeaders.usage(answered,
                "X-RateLimit-Remaining", "X-RateLimit-Reset"));
    }

    /** The account the token belongs to: the settings' where named, else {@code verify_credentials} (kept). */
    CompletableFuture<Account> account(ChannelConnection connection) {
        String stored = connection.settings(MastodonSettings.class).accountId();
        if (!Texts.blank(stored)) {
            return CompletableFuture.completedFuture(new Known(stored));
        }
        String key = key(connection);
        String held = accounts.get(key);
        if (held != null) {
            return CompletableFuture.completedFuture(new Known(held));
        }
        return verifyCredentials(connection).thenApply(exchange -> {
            String id = accountIdOf(exchange);
            if (id == null) {
                return new NotKnown(exchange);
            }
            accounts.put(key, id);
            return new Known(id);
        });
    }

    CompletableFuture<Exchange> verifyCredentials(ChannelConnection connection) {
        return send(get(connection, "/api/v1/accounts/verify_credentials", instance(connection)));
    }

    static String accountIdOf(Exchange exchange) {
        if (exchange instanceof Exchange.Answered answered && answered.status() == 200) {
            return Json.text(Json.parse(answered.body()), "id");
        }
        return null;
    }

    /** The status an answer describes ({@code id}, {@code url}), empty when it lacks its id. */
    static Optional<ProviderRef> status(JsonNode body) {
        String id = Json.text(body, "id");
        return Texts.blank(id) ? Optional.empty() : Optional.of(new ProviderRef(id, Json.text(body, "url")));
    }

    /** The instance's {@code error}, redacted and shortened, or the status when it gave none. */
    static String error(Exchange.Answered answered) {
        String error = Json.text(Json.parse(answered.body()), "error");
        return error == null ? "HTTP " + answered.status()
                : Redactor.excerpt(error, answered.request().secrets(), 300);
    }

    /** A 403 for the token's scopes ("This action is outside the authorized scopes"). */
    static boolean outsideScopes(Exchange.Answered answered) {
        return answered.status() == 403 && error(answered).toLowerCase(java.util.Locale.ROOT).contains("scope");
    }

    /** {@code X-RateLimit-Reset} (an ISO-8601 instant), else {@code Retry-After}. */
    static Duration retryAfter(Exchange.Answered answered, Clock clock) {
        Optional<String> reset = answered.header("X-RateLimit-Reset");
        if (reset.isPresent()) {
            try {
                Duration wait = Duration.between(clock.instant(), OffsetDateTime.parse(reset.get().trim()).toInstant());
                return wait.isNegative() ? Duration.ZERO : wait;
            } catch (DateTimeException ignored) {
                // fall back to Retry-After
            }
        }
        return RetryAfter.parse(answered.header("Retry-After"), clock).orElse(null);
    }

    static String describe(Exchange exchange) {
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return unanswered.detail();
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        return "HTTP " + answered.status() + ": " + error(answered);
    }

    static Instant createdAt(JsonNode status) {
        try {
            String at = Json.text(status, "created_at");
            return at == null ? null : OffsetDateTime.parse(at).toInstant();
        } catch (DateTimeException unreadable) {
            return null;
        }
    }

    /** One account per connection and token: a new token never uses an old token's account. */
    private static String key(ChannelConnection connection) {
        return workspace(connection) + "/" + connection.channelId().value() + "/"
                + IdempotencyKeys.sha256Hex(instance(connection) + "\n" + token(connection));
    }
}
