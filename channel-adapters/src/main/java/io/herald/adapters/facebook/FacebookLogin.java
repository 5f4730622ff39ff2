package io.herald.adapters.facebook;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.oauth.OAuthCalls;
import io.herald.adapters.port.OAuthApps;
import io.herald.adapters.port.OAuthFlow;
import io.herald.platform.wire.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Facebook Login for a Page: the dialog with PKCE, the code exchanged for a user token, that one for
 * a long-lived user token ({@code grant_type=fb_exchange_token}), and the Pages it manages
 * ({@code /me/accounts}), each with its Page token: the admin picks one. A Page token got from a
 * long-lived user token does not expire.
 */
final class FacebookLogin implements OAuthFlow {

    static final String SCOPES = "pages_show_list,pages_manage_posts,pages_read_engagement,pages_read_user_content";

    private final OAuthCalls calls;
    private final String dialogBaseUrl;
    private final String graphBaseUrl;
    private final String appId;
    private final String appSecret;

    FacebookLogin(OAuthCalls calls, String dialogBaseUrl, String graphBaseUrl, String appId, String appSecret) {
        this.calls = calls;
        this.dialogBaseUrl = dialogBaseUrl;
        this.graphBaseUrl = graphBaseUrl;
        this.appId = appId;
        this.appSecret = appSecret;
    }

    /** The message of a Graph error envelope. */
    static String reason(JsonNode body) {
        JsonNode message = body.path("error").path("message");
        return message.isTextual() ? message.asText() : null;
    }

    @Override
    public List<String> missingConfiguration() {
        return OAuthCalls.unset("herald.channels.facebook.app-id", appId, "herald.channels.facebook.app-secret", appSecret);
    }

    @Override
    public CompletableFuture<Authorization> authorize(Start start, OAuthApps apps) {
        return CompletableFuture.completedFuture(new Authorization(OAuthCalls.withQuery(dialogBaseUrl + "/dialog/oauth",
                OAuthCalls.params("client_id", appId, "redirect_uri", start.redirectUri().toString(),
                        "state", start.state(), "response_type", "code", "scope", SCOPES,
                        "code_challenge", start.codeChallenge(), "code_challenge_method", "S256")), Json.object()));
    }

    @Override
    public CompletableFuture<List<Choice>> exchange(Callback callback, OAuthApps apps) {
        String tokenUrl = graphBaseUrl + "/oauth/access_token";
        return calls.get(tokenUrl, OAuthCalls.params("client_id", appId, "client_secret", appSecret,
                        "redirect_uri", callback.redirectUri().toString(), "code", callback.code(),
                        "code_verifier", callback.codeVerifier()),
                List.of(appSecret, callback.code(), callback.codeVerifier()), Map.of(), "the Facebook code exchange")
                .thenCompose(answer -> {
                    String shortLived = OAuthCalls.required(answer, "access_token", "the Facebook code exchange");
                    return calls.get(tokenUrl, OAuthCalls.params("grant_type", "fb_exchange_token", "client_id", appId,
                            "client_secret", appSecret, "fb_exchange_token", shortLived),
                            List.of(appSecret, shortLived), Map.of(), "the Facebook long-lived token exchange");
                })
                .thenCompose(answer -> {
                    String userToken = OAuthCalls.required(answer, "access_token",
                            "the Facebook long-lived token exchange");
                    return calls.get(graphBaseUrl + "/me/accounts",
                            OAuthCalls.params("fields", "id,name,access_token", "limit", "100"),
                            List.of(userToken), Map.of("Authorization", "Bearer " + userToken),
                            "the list of the user's Facebook Pages");
                })
                .thenApply(FacebookLogin::pages);
    }

    private static List<Choice> pages(JsonNode answer) {
        List<Choice> pages = new ArrayList<>();
        for (JsonNode page : answer.path("data")) {
            String id = page.path("id").asText("");
            String token = page.path("access_token").asText("");
            if (id.isBlank() || token.isBlank()) {
                continue;
            }
            pages.add(new Choice(id, page.path("name").asText(id), "page", Json.object()
                    .put("type", FacebookPlugin.TYPE.wireName()).put("pageId", id).put("pageAccessToken", token)));
        }
        if (pages.isEmpty()) {
            throw OAuthCalls.failed("the Facebook user manages no Page Herald may post to"
                    + " (or did not grant pages_show_list)");
        }
        return pages;
    }
}
