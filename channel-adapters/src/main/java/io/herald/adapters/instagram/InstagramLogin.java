package io.herald.adapters.instagram;

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
 * Instagram API with Instagram Login, for a professional account: the authorization page
 * ({@code /oauth/authorize} with the publishing scopes), the code exchanged at
 * {@code POST /oauth/access_token} (form: client id and secret, {@code grant_type=authorization_code},
 * redirect URI, code) for a short-lived token, that one for a long-lived token
 * ({@code GET /access_token?grant_type=ig_exchange_token}, about 60 days), and the account
 * ({@code GET /me?fields=user_id,username}). One grant is one account: no choice. The long-lived
 * token's expiry is the connection's {@code accessTokenExpiresAt}, so Herald refreshes it before it
 * lapses. Instagram Login has no PKCE; the client secret authenticates the exchange.
 */
final class InstagramLogin implements OAuthFlow {

    /** Reading the account, publishing, and the first comment. */
    static final String SCOPES = "instagram_business_basic,instagram_business_content_publish,"
            + "instagram_business_manage_comments";

    private final OAuthCalls calls;
    private final String authorizeBaseUrl;
    private final String tokenBaseUrl;
    private final String graphBaseUrl;
    private final String appId;
    private final String appSecret;
    private final Clock clock;

    InstagramLogin(OAuthCalls calls, String authorizeBaseUrl, String tokenBaseUrl, String graphBaseUrl, String appId,
                   String appSecret, Clock clock) {
        this.calls = calls;
        this.authorizeBaseUrl = trimmed(authorizeBaseUrl);
        this.tokenBaseUrl = trimmed(tokenBaseUrl);
        this.graphBaseUrl = trimmed(graphBaseUrl);
        this.appId = appId;
        this.appSecret = appSecret;
        this.clock = clock;
    }

    /**
     * The reason in an error body: Instagram's OAuth endpoints answer {@code {error_type, code,
     * error_message}}, the Graph endpoints the envelope {@code {error: {message, …}}}.
     */
    static String reason(JsonNode body) {
        if (body.path("error_message").isTextual()) {
            return body.path("error_message").asText();
        }
        JsonNode message = body.path("error").path("message");
        if (message.isTextual()) {
            return message.asText();
        }
        return body.path("error_description").isTextual() ? body.path("error_description").asText() : null;
    }

    @Override
    public List<String> missingConfiguration() {
        return OAuthCalls.unset("herald.channels.instagram.app-id", appId, "herald.channels.instagram.app-secret", appSecret);
    }

    @Override
    public CompletableFuture<Authorization> authorize(Start start, OAuthApps apps) {
        return CompletableFuture.completedFuture(new Authorization(OAuthCalls.withQuery(
                authorizeBaseUrl + "/oauth/authorize", OAuthCalls.params("client_id", appId,
                        "redirect_uri", start.redirectUri().toString(), "response_type", "code", "scope", SCOPES,
                        "state", start.state())), Json.object()));
    }

    @Override
    public CompletableFuture<List<Choice>> exchange(Callback callback, OAuthApps apps) {
        return calls.postForm(null, tokenBaseUrl + "/oauth/access_token", OAuthCalls.params("client_id", appId,
                        "client_secret", appSecret, "grant_type", "authorization_code",
                        "redirect_uri", callback.redirectUri().toString(), "code", callback.code()),
                List.of(appSecret, callback.code()), "the Instagram code exchange")
                .thenCompose(answer -> {
                    // Instagram answers {data: [{access_token, user_id, permissions}]}, earlier the fields bare
                    JsonNode grant = answer.path("data").isArray() ? answer.path("data").path(0) : answer;
                    String shortLived = OAuthCalls.required(grant, "access_token", "the Instagram code exchange");
                    return calls.get(graphBaseUrl + "/access_token", OAuthCalls.params(
                                    "grant_type", "ig_exchange_token", "client_secret", appSecret,
                                    "access_token", shortLived),
                            List.of(appSecret, shortLived), Map.of("Accept", "application/json"),
                            "the Instagram long-lived token exchange");
                })
                .thenCompose(answer -> {
                    String token = OAuthCalls.required(answer, "access_token",
                            "the Instagram long-lived token exchange");
                    long expiresIn = answer.path("expires_in").asLong(0);
                    return calls.get(graphBaseUrl + "/me", OAuthCalls.params("fields", "user_id,username"),
                                    List.of(token), InstagramGraph.bearer(token), "reading the Instagram account")
                            .thenApply(account -> List.of(account(token, expiresIn, account)));
                });
    }

    private Choice account(String token, long expiresIn, JsonNode account) {
        // user_id is the professional account's id the content publishing calls take; id is app-scoped
        String userId = account.path("user_id").isValueNode() && !account.path("user_id").asText().isBlank()
                ? account.path("user_id").asText() : OAuthCalls.required(account, "id", "reading the Instagram account");
        ObjectNode connection = Json.object().put("type", InstagramPlugin.TYPE.wireName()).put("igUserId", userId)
                .put("accessToken", token);
        if (expiresIn > 0) {
            connection.put("accessTokenExpiresAt", clock.instant().plusSeconds(expiresIn).toString());
        }
        return new Choice(userId, account.path("username").asText(userId), "account", connection);
    }

    private static String trimmed(String url) {
        return url == null ? null : url.replaceAll("/+$", "");
    }
}
