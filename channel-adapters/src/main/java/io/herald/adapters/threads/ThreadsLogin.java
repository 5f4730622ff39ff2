package io.herald.adapters.threads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.oauth.OAuthCalls;
import io.herald.adapters.port.OAuthApps;
import io.herald.adapters.port.OAuthFlow;
import io.herald.platform.wire.Json;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Threads' OAuth for a profile: the authorization page ({@code threads.net/oauth/authorize} with
 * the scopes the plug-in's steps need), the code exchanged at {@code POST /oauth/access_token}
 * (form: client id and secret, code, {@code grant_type=authorization_code}, redirect URI) for a
 * short-lived token and the user id, that one for a long-lived token
 * ({@code GET /access_token?grant_type=th_exchange_token}, 60 days), and the profile
 * ({@code GET /me?fields=id,username}). One grant is one profile: no choice. The long-lived token's
 * expiry is the connection's {@code accessTokenExpiresAt}, so Herald refreshes it before it lapses.
 */
final class ThreadsLogin implements OAuthFlow {

    /** Reading the profile, publishing, first comments (replies) and reading them back, deleting. */
    static final String SCOPES = "threads_basic,threads_content_publish,threads_manage_replies,"
            + "threads_read_replies,threads_delete";

    private final OAuthCalls calls;
    private final String authorizeBaseUrl;
    private final String baseUrl;
    private final String appId;
    private final String appSecret;
    private final Clock clock;

    ThreadsLogin(OAuthCalls calls, String authorizeBaseUrl, String baseUrl, String appId, String appSecret,
                 Clock clock) {
        this.calls = calls;
        this.authorizeBaseUrl = authorizeBaseUrl == null ? null : authorizeBaseUrl.replaceAll("/+$", "");
        this.baseUrl = baseUrl;
        this.appId = appId;
        this.appSecret = appSecret;
        this.clock = clock;
    }

    /** The message of the Graph error envelope Threads answers. */
    static String reason(JsonNode body) {
        JsonNode message = body.path("error").path("message");
        if (message.isTextual()) {
            return message.asText();
        }
        return body.path("error_description").isTextual() ? body.path("error_description").asText() : null;
    }

    @Override
    public List<String> missingConfiguration() {
        return OAuthCalls.unset("herald.channels.threads.app-id", appId, "herald.channels.threads.app-secret", appSecret);
    }

    @Override
    public CompletableFuture<Authorization> authorize(Start start, OAuthApps apps) {
        return CompletableFuture.completedFuture(new Authorization(OAuthCalls.withQuery(
                authorizeBaseUrl + "/oauth/authorize", OAuthCalls.params("client_id", appId,
                        "redirect_uri", start.redirectUri().toString(), "scope", SCOPES, "response_type", "code",
                        "state", start.state())), Json.object()));
    }

    @Override
    public CompletableFuture<List<Choice>> exchange(Callback callback, OAuthApps apps) {
        return calls.postForm(null, baseUrl + "/oauth/access_token", OAuthCalls.params("client_id", appId,
                        "client_secret", appSecret, "code", callback.code(), "grant_type", "authorization_code",
                        "redirect_uri", callback.redirectUri().toString()),
                List.of(appSecret, callback.code()), "the Threads code exchange")
                .thenCompose(answer -> {
                    String shortLived = OAuthCalls.required(answer, "access_token", "the Threads code exchange");
                    return calls.get(baseUrl + "/access_token", OAuthCalls.params("grant_type", "th_exchange_token",
                                    "client_secret", appSecret, "access_token", shortLived),
                            List.of(appSecret, shortLived), Map.of("Accept", "application/json"),
                            "the Threads long-lived token exchange");
                })
                .thenCompose(answer -> {
                    String token = OAuthCalls.required(answer, "access_token", "the Threads long-lived token exchange");
                    long expiresIn = answer.path("expires_in").asLong(0);
                    return calls.get(baseUrl + "/me", OAuthCalls.params("fields", "id,username"), List.of(token),
                                    Map.of("Authorization", "Bearer " + token, "Accept", "application/json"),
                                    "reading the Threads profile")
                            .thenApply(profile -> List.of(profile(token, expiresIn, profile)));
                });
    }

    private Choice profile(String token, long expiresIn, JsonNode profile) {
        String id = OAuthCalls.required(profile, "id", "reading the Threads profile");
        ObjectNode connection = Json.object().put("type", ThreadsPlugin.TYPE.wireName()).put("threadsUserId", id)
                .put("accessToken", token);
        if (expiresIn > 0) {
            connection.put("accessTokenExpiresAt", clock.instant().plusSeconds(expiresIn).toString());
        }
        return new Choice(id, profile.path("username").asText(id), "account", connection);
    }
}
