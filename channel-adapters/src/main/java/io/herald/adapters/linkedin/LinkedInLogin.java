package io.herald.adapters.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.oauth.OAuthCalls;
import io.herald.adapters.port.OAuthApps;
import io.herald.adapters.port.OAuthFlow;
import io.herald.platform.wire.Json;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Sign In with LinkedIn for posting: the authorization page with the app's scopes
 * ({@code w_member_social}, plus {@code r_member_social} and the organization scopes where the app
 * has them), the code exchanged at {@code /accessToken} (LinkedIn web apps use the client secret;
 * PKCE is for its native clients), the member from {@code /v2/userinfo} and, where the grant allows
 * it, the organizations the member administers ({@code /rest/organizationAcls}): the admin picks the
 * member or an organization. The token's expiry is the connection's {@code accessTokenExpiresAt}.
 */
final class LinkedInLogin implements OAuthFlow {

    private final OAuthCalls calls;
    private final String authorizationBaseUrl;
    private final String apiBaseUrl;
    private final String version;
    private final String clientId;
    private final String clientSecret;
    private final String scopes;
    private final Clock clock;

    LinkedInLogin(OAuthCalls calls, String authorizationBaseUrl, String apiBaseUrl, String version, String clientId,
                  String clientSecret, String scopes, Clock clock) {
        this.calls = calls;
        this.authorizationBaseUrl = authorizationBaseUrl;
        this.apiBaseUrl = apiBaseUrl;
        this.version = version;
        this.clientId = clientId;
        this.clientSecret = clientSecret;
        this.scopes = scopes;
        this.clock = clock;
    }

    static String reason(JsonNode body) {
        for (String field : List.of("error_description", "message", "error")) {
            if (body.path(field).isTextual()) {
                return body.path(field).asText();
            }
        }
        return null;
    }

    @Override
    public List<String> missingConfiguration() {
        return OAuthCalls.unset("herald.channels.linkedin.client-id", clientId, "herald.channels.linkedin.client-secret", clientSecret);
    }

    /** LinkedIn sends its own words when the member cancels the sign-in or the authorization. */
    @Override
    public boolean declined(String error) {
        return "user_cancelled_authorize".equals(error) || "user_cancelled_login".equals(error)
                || OAuthFlow.super.declined(error);
    }

    @Override
    public CompletableFuture<Authorization> authorize(Start start, OAuthApps apps) {
        return CompletableFuture.completedFuture(new Authorization(OAuthCalls.withQuery(
                authorizationBaseUrl + "/authorization", OAuthCalls.params("response_type", "code",
                        "client_id", clientId, "redirect_uri", start.redirectUri().toString(), "state", start.state(),
                        "scope", scopes.replace(',', ' '))), Json.object()));
    }

    @Override
    public CompletableFuture<List<Choice>> exchange(Callback callback, OAuthApps apps) {
        return calls.postForm(null, authorizationBaseUrl + "/accessToken", OAuthCalls.params(
                        "grant_type", "authorization_code", "code", callback.code(),
                        "redirect_uri", callback.redirectUri().toString(), "client_id", clientId,
                        "client_secret", clientSecret),
                List.of(callback.code(), clientSecret), "the LinkedIn code exchange")
                .thenCompose(answer -> {
                    String token = OAuthCalls.required(answer, "access_token", "the LinkedIn code exchange");
                    long expiresIn = answer.path("expires_in").asLong(0);
                    List<String> granted = Arrays.stream(answer.path("scope").asText(scopes).split("[ ,]+"))
                            .filter(s -> s.matches("[a-z_]{1,64}")).toList();
                    Map<String, String> bearer = Map.of("Authorization", "Bearer " + token,
                            "LinkedIn-Version", version, "X-Restli-Protocol-Version", "2.0.0");
                    CompletableFuture<JsonNode> member = calls.get(apiBaseUrl + "/v2/userinfo", Map.of(),
                            List.of(token), bearer, "reading the LinkedIn member");
                    boolean admin = granted.contains("rw_organization_admin") || granted.contains("r_organization_admin");
                    CompletableFuture<JsonNode> organizations = !admin ? CompletableFuture.completedFuture(Json.object())
                            : calls.get(apiBaseUrl + "/rest/organizationAcls", OAuthCalls.params("q", "roleAssignee",
                                    "role", "ADMINISTRATOR", "state", "APPROVED"), List.of(token), bearer,
                                    "listing the member's LinkedIn organizations");
                    return member.thenCombine(organizations, (who, acls) -> choices(token, expiresIn, granted, who,
                            acls));
                });
    }

    private List<Choice> choices(String token, long expiresIn, List<String> granted, JsonNode member, JsonNode acls) {
        List<Choice> choices = new ArrayList<>();
        String sub = OAuthCalls.required(member, "sub", "reading the LinkedIn member");
        choices.add(new Choice("urn:li:person:" + sub, member.path("name").asText(sub), "member",
                connection("urn:li:person:" + sub, token, expiresIn, granted)));
        for (JsonNode acl : acls.path("elements")) {
            String organization = acl.path("organization").asText("");
            if (organization.matches("urn:li:organization:[A-Za-z0-9_-]{1,64}")) {
                choices.add(new Choice(organization, acl.path("organizationName").asText(organization), "organization",
                        connection(organization, token, expiresIn, granted)));
            }
        }
        return choices;
    }

    private ObjectNode connection(String author, String token, long expiresIn, List<String> granted) {
        ObjectNode connection = Json.object().put("type", LinkedInPlugin.TYPE.wireName()).put("authorUrn", author)
                .put("accessToken", token);
        ArrayNode scopeList = connection.putArray("scopes");
        granted.stream().filter(s -> s.contains("social")).forEach(scopeList::add);
        if (expiresIn > 0) {
            connection.put("accessTokenExpiresAt", clock.instant().plusSeconds(expiresIn).toString());
        }
        return connection;
    }
}
