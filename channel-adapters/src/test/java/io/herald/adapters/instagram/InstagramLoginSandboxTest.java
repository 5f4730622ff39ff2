package io.herald.adapters.instagram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.adapters.SandboxTestSupport;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.port.OAuthFlow;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxDemo;
import io.herald.sandbox.instagram.InstagramLoginController;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Instagram Login against the sandbox's authorization page and exchanges over real HTTP: the code
 * exchanged for a short-lived token and that one for a long-lived token, the account read, its
 * expiry kept; a reused code, another redirect URI and a wrong client secret refused with
 * Instagram's own reason and none of the secrets in it.
 */
class InstagramLoginSandboxTest extends SandboxTestSupport {

    private static final URI REDIRECT = URI.create("https://herald.example/oauth/callback/instagram");
    private static final HttpClient BROWSER = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .build();

    private OAuthFlow login(String appSecret) {
        String base = server.baseUrl() + "/sandbox/instagram";
        return (OAuthFlow) InstagramPlugin.login(new ProviderHttp("instagram", Duration.ofSeconds(2),
                        Duration.ofSeconds(10), clock), base + "/www", base + "/api", base + "/v23.0",
                InstagramLoginController.APP_ID, appSecret);
    }

    @Test
    void theCodeBecomesALongLivedTokenOfTheAccountKeptWithItsExpiry() throws Exception {
        OAuthFlow login = login(InstagramLoginController.APP_SECRET);
        String authorize = login.authorize(new OAuthFlow.Start("ws", Json.object(), REDIRECT, "st.sig", "challenge"),
                null).get(10, TimeUnit.SECONDS).authorizeUrl().toString();
        assertThat(authorize).contains("/oauth/authorize?").contains("client_id=" + InstagramLoginController.APP_ID)
                .contains("scope=instagram_business_basic%2Cinstagram_business_content_publish")
                .contains("response_type=code").contains("state=st.sig").doesNotContain("challenge");

        String code = code(authorize);
        List<OAuthFlow.Choice> choices = login.exchange(new OAuthFlow.Callback("ws", code, "verifier", REDIRECT,
                Json.object()), null).get(10, TimeUnit.SECONDS);
        assertThat(choices).hasSize(1);
        OAuthFlow.Choice account = choices.get(0);
        assertThat(account.kind()).isEqualTo("account");
        assertThat(account.id()).isEqualTo(SandboxDemo.INSTAGRAM_USER_ID);
        assertThat(account.name()).isEqualTo(SandboxDemo.INSTAGRAM_USERNAME);
        assertThat(account.connection().get("type").asText()).isEqualTo("instagram");
        assertThat(account.connection().get("igUserId").asText()).isEqualTo(SandboxDemo.INSTAGRAM_USER_ID);
        assertThat(account.connection().get("accessToken").asText()).startsWith("IGAA");
        assertThat(Instant.parse(account.connection().get("accessTokenExpiresAt").asText()))
                .isAfter(Instant.now().plus(Duration.ofDays(59)));
        assertThat(account.toString()).doesNotContain(account.connection().get("accessToken").asText());

        // the code works once
        assertThatThrownBy(() -> exchange(login, code, REDIRECT)).isInstanceOfSatisfying(HeraldRejection.class, r -> {
            assertThat(r.code()).isEqualTo(ErrorCode.OAUTH_FAILED);
            assertThat(r.detail()).contains("the Instagram code exchange was refused (HTTP 400)")
                    .contains("Matching code was not found or was already used").doesNotContain(code);
        });
    }

    @Test
    void anotherRedirectUriOrAWrongClientSecretIsRefusedWithInstagramsReason() throws Exception {
        OAuthFlow login = login(InstagramLoginController.APP_SECRET);
        String code = code(login.authorize(new OAuthFlow.Start("ws", Json.object(), REDIRECT, "s", "c"), null)
                .get(10, TimeUnit.SECONDS).authorizeUrl().toString());
        assertThatThrownBy(() -> exchange(login, code, URI.create("https://elsewhere.example/oauth/callback/instagram")))
                .isInstanceOfSatisfying(HeraldRejection.class, r -> assertThat(r.detail())
                        .contains("redirect_uri is identical").doesNotContain(code));

        OAuthFlow wrongSecret = login("not-the-instagram-secret");
        String another = code(wrongSecret.authorize(new OAuthFlow.Start("ws", Json.object(), REDIRECT, "s", "c"),
                null).get(10, TimeUnit.SECONDS).authorizeUrl().toString());
        assertThatThrownBy(() -> exchange(wrongSecret, another, REDIRECT))
                .isInstanceOfSatisfying(HeraldRejection.class, r -> assertThat(r.detail())
                        .contains("Error validating client secret").doesNotContain("not-the-instagram-secret")
                        .doesNotContain(another));
    }

    @Test
    void withoutItsAppTheFlowNamesTheMissingKeys() {
        OAuthFlow unconfigured = (OAuthFlow) InstagramPlugin.login(new ProviderHttp("instagram", Duration.ofSeconds(1),
                Duration.ofSeconds(1), clock), "https://www.instagram.com", "https://api.instagram.com",
                "https://graph.instagram.com/v23.0", null, " ");
        assertThat(unconfigured.missingConfiguration()).containsExactly("herald.channels.instagram.app-id",
                "herald.channels.instagram.app-secret");
        assertThat(login(InstagramLoginController.APP_SECRET).missingConfiguration()).isEmpty();
    }

    private static List<OAuthFlow.Choice> exchange(OAuthFlow login, String code, URI redirect) throws Exception {
        try {
            return login.exchange(new OAuthFlow.Callback("ws", code, "verifier", redirect, Json.object()), null)
                    .get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r && r.getCause() instanceof HeraldRejection h ? h
                    : e.getCause() instanceof HeraldRejection h2 ? h2 : e;
        }
    }

    /** The code the approving authorization page sends the browser back with. */
    private static String code(String authorizeUrl) throws Exception {
        HttpResponse<String> page = BROWSER.send(HttpRequest.newBuilder(URI.create(authorizeUrl)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).as(page.body()).isEqualTo(302);
        URI back = URI.create(page.headers().firstValue("Location").orElseThrow());
        assertThat(back.toString()).startsWith(REDIRECT.toString());
        return Stream.of(back.getRawQuery().split("&")).filter(p -> p.startsWith("code="))
                .map(p -> URLDecoder.decode(p.substring(5), StandardCharsets.UTF_8)).findFirst().orElseThrow();
    }
}
