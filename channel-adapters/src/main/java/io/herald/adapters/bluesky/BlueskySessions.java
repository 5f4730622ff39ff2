package io.herald.adapters.bluesky;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.port.ChannelConnection;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The sessions Herald holds on Bluesky, one per connection and credential, in memory only (never
 * stored, never logged): made with the app password once ({@code createSession} is limited to 30
 * per 5 minutes per account), its access token refreshed when the PDS calls it expired, and made
 * again when the refresh token is refused too. A call refused for its token did not execute, so it
 * is sent again with the new one.
 */
final class BlueskySessions {

    /** Token errors after which a new token may succeed; the PDS answers them with 400 or 401. */
    static final Set<String> TOKEN_ERRORS = Set.of("ExpiredToken", "InvalidToken", "AuthenticationRequired",
            "AuthMissing");

    /** One session. */
    record Session(String did, String handle, String accessJwt, String refreshJwt) {
        @Override
        public String toString() {
            return "Session[" + did + ", tokens redacted]";
        }
    }

    /**
     * How an authorised call ended: {@link Sent} with the call's exchange, or {@link NoSession} with
     * the exchange that failed to make one (the call itself was not sent).
     */
    sealed interface Call {
        Exchange exchange();
    }

    record Sent(Exchange exchange, Session session) implements Call {
    }

    record NoSession(Exchange exchange) implements Call {
    }

    private final ProviderHttp http;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    BlueskySessions(ProviderHttp http) {
        this.http = http;
    }

    /** Calls {@code request} with the connection's session, renewing the session once if its token is refused. */
    CompletableFuture<Call> call(ChannelConnection connection, Function<Session, OutgoingRequest> request) {
        String key = key(connection);
        return session(connection, key, false).thenCompose(first -> {
            if (!(first instanceof Sent made)) {
                return CompletableFuture.completedFuture(first);
            }
            Session session = made.session();
            return http.send(request.apply(session)).thenCompose(exchange -> {
                // the PDS's rate-limit headers, for the connection's budget
                http.reportUsage(connection, exchange, answered -> io.herald.adapters.http.RateLimitHeaders.usage(
                        answered, "ratelimit-remaining", "ratelimit-reset"));
                if (!tokenRefused(exchange)) {
                    return CompletableFuture.completedFuture((Call) new Sent(exchange, session));
                }
                return renew(connection, key, session).thenCompose(renewed -> renewed instanceof Sent again
                        ? http.send(request.apply(again.session())).thenApply(e -> (Call) new Sent(e, again.session()))
                        : CompletableFuture.completedFuture(renewed));
            });
        });
    }

    /**
     * The connection's session: the held one, else one made with the app password (and held from
     * then on). A connection being checked before it is stored signs in this way, so its first
     * probe and write use the same session.
     */
    CompletableFuture<Call> signIn(ChannelConnection connection) {
        return session(connection, key(connection), false);
    }

    /** The DID of the connection's held session, if any: a read needs none, but names the repo better by it. */
    String repoOf(ChannelConnection connection) {
        Session held = sessions.get(key(connection));
        return held != null ? held.did() : connection.settings(BlueskySettings.class).handle();
    }

    /** The handle of the connection's held session, else the stored one: for a post's web address. */
    String handleOf(ChannelConnection connection) {
        Session held = sessions.get(key(connection));
        return held != null && held.handle() != null ? held.handle() : connection.settings(BlueskySettings.class).handle();
    }

    /** Changes the connection's held session: tests stand in for a token running out with it. */
    void replace(ChannelConnection connection, UnaryOperator<Session> change) {
        sessions.computeIfPresent(key(connection), (key, held) -> change.apply(held));
    }

    /** The connection's held session, if any. */
    Optional<Session> held(ChannelConnection connection) {
        return Optional.ofNullable(sessions.get(key(connection)));
    }

    static boolean tokenRefused(Exchange exchange) {
        return exchange instanceof Exchange.Answered answered && (answered.status() == 400 || answered.status() == 401)
                && TOKEN_ERRORS.contains(Json.text(Json.parse(answered.body()), "error"));
    }

    /** Every credential that may travel for this connection, for redaction. */
    List<String> secretsOf(ChannelConnection connection) {
        List<String> secrets = new ArrayList<>();
        secrets.add(connection.secrets(BlueskySecrets.class).appPassword());
        Session held = sessions.get(key(connection));
        if (held != null) {
            secrets.add(held.accessJwt());
            secrets.add(held.refreshJwt());
        }
        return secrets;
    }

    /** The credentials a call with {@code session} carries, for redaction. */
    static List<String> secretsOf(ChannelConnection connection, Session session) {
        List<String> secrets = new ArrayList<>();
        secrets.add(connection.secrets(BlueskySecrets.class).appPassword());
        secrets.add(session.accessJwt());
        secrets.add(session.refreshJwt());
        return secrets;
    }

    static URI xrpc(ChannelConnection connection, String method) {
        return URI.create(connection.settings(BlueskySettings.class).pdsUrl() + "/xrpc/" + method);
    }

    static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token, "Accept", "application/json");
    }

    private CompletableFuture<Call> session(ChannelConnection connection, String key, boolean fresh) {
        Session held = fresh ? null : sessions.get(key);
        if (held != null) {
            return CompletableFuture.completedFuture(new Sent(null, held));
        }
        BlueskySettings settings = connection.settings(BlueskySettings.class);
        String password = connection.secrets(BlueskySecrets.class).appPassword();
        ObjectNode body = Json.object().put("identifier", settings.handle()).put("password", password);
        OutgoingRequest create = new OutgoingRequest("POST", xrpc(connection, "com.atproto.server.createSession"),
                Map.of("Accept", "application/json"), Json.write(body), "application/json", null, settings.handle(),
                List.of(password));
        return http.send(create).thenApply(exchange -> made(exchange, key));
    }

    /** The access token was refused: refresh the session, else make a new one. */
    private CompletableFuture<Call> renew(ChannelConnection connection, String key, Session stale) {
        sessions.remove(key, stale);
        OutgoingRequest refresh = new OutgoingRequest("POST", xrpc(connection, "com.atproto.server.refreshSession"),
                bearer(stale.refreshJwt()), null, null, null, connection.settings(BlueskySettings.class).handle(),
                List.of(stale.accessJwt(), stale.refreshJwt()));
        return http.send(refresh).thenCompose(exchange -> {
            Call refreshed = made(exchange, key);
            return refreshed instanceof Sent ? CompletableFuture.completedFuture(refreshed)
                    : session(connection, key, true);
        });
    }

    private Call made(Exchange exchange, String key) {
        if (exchange instanceof Exchange.Answered answered && answered.status() == 200) {
            JsonNode body = Json.parse(answered.body());
            String access = Json.text(body, "accessJwt");
            String refresh = Json.text(body, "refreshJwt");
            String did = Json.text(body, "did");
            if (access != null && refresh != null && did != null) {
                Session session = new Session(did, Json.text(body, "handle"), access, refresh);
                // a connection holds one session: one made with older credentials is dropped
                String connection = key.substring(0, key.lastIndexOf('/') + 1);
                sessions.keySet().removeIf(other -> other.startsWith(connection) && !other.equals(key));
                sessions.put(key, session);
                return new Sent(exchange, session);
            }
        }
        return new NoSession(exchange);
    }

    /** One session per connection and credential: a new app password or handle never uses an old session. */
    private static String key(ChannelConnection connection) {
        BlueskySettings settings = connection.settings(BlueskySettings.class);
        return connection.workspaceId().value() + "/" + connection.channelId().value() + "/"
                + IdempotencyKeys.sha256Hex(settings.handle() + "\n" + settings.pdsUrl() + "\n"
                + connection.secrets(BlueskySecrets.class).appPassword());
    }
}
