package io.herald.adapters.mastodon;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.oauth.OAuthCalls;
import io.herald.adapters.port.FormField;
import io.herald.adapters.port.OAuthApps;
import io.herald.adapters.port.OAuthFlow;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import io.herald.platform.wire.Json;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Mastodon's OAuth on the instance the admin names: Herald registers itself there as an app
 * ({@code POST /api/v1/apps}) the first time, keeps that app per instance and callback address,
 * sends the admin to {@code /oauth/authorize} with PKCE, exchanges the code at {@code /oauth/token}
 * and names the account ({@code verify_credentials}). Every call passes the outbound checks.
 */
final class MastodonLogin implements OAuthFlow {

    static final String SCOPES = "read:statuses read:accounts write:statuses write:media";
    static final String INSTANCE_URL = "instanceUrl";

    private final OAuthCalls calls;

    MastodonLogin(OAuthCalls calls) {
        this.calls = calls;
    }

    static String reason(JsonNode body) {
        JsonNode description = body.path("error_description");
        if (description.isTextual()) {
            return description.asText();
        }
        JsonNode error = body.path("error");
        return error.isTextual() ? error.asText() : null;
    }

    /** A connect names the instance to sign in on. */
    record StartForm(@FormField(label = "Mastodon instance", required = true, placeholder = "https://mastodon.social")
                     String instanceUrl) {
    }

    @Override
    public Class<? extends Record> startForm() {
        return StartForm.class;
    }

    /** Herald registers itself on each instance: nothing to configure. */
    @Override
    public List<String> missingConfiguration() {
        return List.of();
    }

    @Override
    public CompletableFuture<Authorization> authorize(Start start, OAuthApps apps) {
        JsonNode given = start.fields().get(INSTANCE_URL);
        String instance = given == null || !given.isTextual() ? null : given.asText().replaceAll("/+$", "");
        if (instance == null || !instance.matches("https?://[^\\s/?#]{1,253}(/[^\\s?#]{0,200})?")) {
            throw HeraldRejection.invalid(List.of(new FieldViolation(INSTANCE_URL,
                    "must be the instance's http(s) address, e.g. https://mastodon.social")));
        }
        String redirect = start.redirectUri().toString();
        CompletableFuture<OAuthApps.App> app = apps.find(instance, redirect)
                .map(CompletableFuture::completedFuture)
                .orElseGet(() -> register(start.workspace(), instance, redirect, apps));
        return app.thenApply(registered -> new Authorization(OAuthCalls.withQuery(instance + "/oauth/authorize",
                OAuthCalls.params("response_type", "code", "client_id", registered.clientId(),
                        "redirect_uri", redirect, "scope", SCOPES, "state", start.state(),
                        "code_challenge", start.codeChallenge(), "code_challenge_method", "S256")),
                Json.object().put(INSTANCE_URL, instance)));
    }

    private CompletableFuture<OAuthApps.App> register(String workspace, String instance, String redirect,
                                                      OAuthApps apps) {
        return calls.postForm(workspace, instance + "/api/v1/apps", OAuthCalls.params("client_name", "Herald",
                        "redirect_uris", redirect, "scopes", SCOPES), List.of(), "registering Herald on the instance")
                .thenApply(answer -> {
                    OAuthApps.App app = new OAuthApps.App(
                            OAuthCalls.required(answer, "client_id", "registering Herald on the instance"),
                            OAuthCalls.required(answer, "client_secret", "registering Herald on the instance"));
                    apps.save(instance, redirect, app);
                    return app;
                });
    }

    @Override
    public CompletableFuture<List<Choice>> exchange(Callback callback, OAuthApps apps) {
        String instance = callback.carried().path(INSTANCE_URL).asText();
        String redirect = callback.redirectUri().toString();
        OAuthApps.App app = apps.find(instance, redirect).orElseThrow(() -> OAuthCalls.failed(
                "Herald's registration on " + instance + " is gone: connect again"));
        return calls.postForm(callback.workspace(), instance + "/oauth/token", OAuthCalls.params(
                        "grant_type", "authorization_code", "code", callback.code(), "client_id", app.clientId(),
                        "client_secret", app.clientSecret(), "redirect_uri", redirect,
                        "code_verifier", callback.codeVerifier(), "scope", SCOPES),
                List.of(callback.code(), app.clientSecret(), callback.codeVerifier()), "the Mastodon code exchange")
                .thenCompose(answer -> {
                    String token = OAuthCalls.required(answer, "access_token", "the Mastodon code exchange");
                    return calls.get(callback.workspace(), instance + "/api/v1/accounts/verify_credentials",
                                    List.of(token), Map.of("Authorization", "Bearer " + token),
                                    "reading the Mastodon account")
                            .thenApply(account -> List.of(new Choice(account.path("id").asText(),
                                    "@" + account.path("acct").asText(account.path("username").asText()),
                                    "account", Json.object().put("type", MastodonPlugin.TYPE.wireName())
                                    .put(INSTANCE_URL, instance).put("accessToken", token)
                                    .put("accountId", account.path("id").asText()))));
                });
    }
}
