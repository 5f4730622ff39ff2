package io.herald.sandbox.instagram;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.OAuthIssued;
import io.herald.sandbox.SandboxDemo;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Instagram Login (Instagram API with Instagram Login) for the sandbox's app ({@link #APP_ID}): the
 * authorization page under {@code /sandbox/instagram/www} approving at once for the demo's account
 * (or declining, {@code error=access_denied}, while {@code /sandbox/_admin/instagram/login} says so),
 * the code exchange at {@code POST /sandbox/instagram/api/oauth/access_token} (a code works once, with
 * the app's secret and the same redirect URI; errors as Instagram's OAuth endpoints answer them,
 * {@code {error_type, code, error_message}}) giving a short-lived token, and the long-lived exchange
 * {@code GET /sandbox/instagram/v23.0/access_token?grant_type=ig_exchange_token} (errors in the Graph
 * envelope; refused while the admin endpoint says {@code refusesExchange}) giving a 60-day token the
 * Graph endpoints then accept.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class InstagramLoginController {

    public static final String APP_ID = "990011223344556";
    public static final String APP_SECRET = "sandbox-instagram-app-secret";
    /** What Meta answers as a long-lived token's {@code expires_in}: about 60 days. */
    static final long LONG_LIVED_SECONDS = 5_183_944;

    private final InstagramAccounts accounts;
    private final OAuthIssued issued;
    private record Grant(String redirectUri, String scope) {
    }

    private final Map<String, Grant> codes = new ConcurrentHashMap<>();
    private final Map<String, String> shortLived = new ConcurrentHashMap<>();
    private final AtomicBoolean declines = new AtomicBoolean();
    private final AtomicBoolean refusesExchange = new AtomicBoolean();
    private final SecureRandom random = new SecureRandom();

    InstagramLoginController(InstagramAccounts accounts, OAuthIssued issued) {
        this.accounts = accounts;
        this.issued = issued;
        issued.note(InstagramApiController.PROVIDER, "client_secret", APP_SECRET);
    }

    /**
     * {@code {"declines": true}}: the user declines the next authorizations; {@code {"refusesExchange":
     * true}}: the long-lived token exchange is refused; each until set back.
     */
    @PostMapping("/sandbox/_admin/instagram/login")
    public ResponseEntity<Void> configure(@RequestBody Map<String, Object> settings) {
        if (settings.containsKey("declines")) {
            declines.set(Boolean.TRUE.equals(settings.get("declines")));
        }
        if (settings.containsKey("refusesExchange")) {
            refusesExchange.set(Boolean.TRUE.equals(settings.get("refusesExchange")));
        }
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/sandbox/instagram/www/oauth/authorize")
    public ResponseEntity<String> authorize(@RequestParam Map<String, String> params) {
        String redirect = params.get("redirect_uri");
        if (!APP_ID.equals(params.get("client_id"))) {
            return oauthError("Invalid platform app");
        }
        if (redirect == null || !redirect.matches("https?://[^#]+") || !"code".equals(params.get("response_type"))) {
            return oauthError("Invalid redirect_uri or response_type");
        }
        String query;
        if (declines.get()) {
            query = "error=access_denied&error_reason=user_denied&error_description="
                    + encode("The user denied your request.");
        } else {
            String code = token("AQB");
            issued.note(InstagramApiController.PROVIDER, "code", code);
            codes.put(code, new Grant(redirect, Optional.ofNullable(params.get("scope")).orElse("")));
            query = "code=" + encode(code);
        }
        if (params.get("state") != null) {
            query += "&state=" + encode(params.get("state"));
        }
        return ResponseEntity.status(HttpStatus.FOUND)
                .location(URI.create(redirect + (redirect.contains("?") ? "&" : "?") + query + "#_")).build();
    }

    @PostMapping("/sandbox/instagram/api/oauth/access_token")
    public ResponseEntity<String> accessToken(@RequestParam Map<String, String> form) {
        if (!APP_ID.equals(form.get("client_id"))) {
            return oauthError("Invalid platform app");
        }
        if (!APP_SECRET.equals(form.get("client_secret"))) {
            return oauthError("Error validating client secret.");
        }
        if (!"authorization_code".equals(form.get("grant_type"))) {
            return oauthError("Invalid grant_type: must be authorization_code");
        }
        Grant grant = codes.remove(Optional.ofNullable(form.get("code")).orElse(""));
        if (grant == null) {
            return oauthError("Matching code was not found or was already used.");
        }
        if (!grant.redirectUri().equals(form.get("redirect_uri"))) {
            return oauthError("Error validating verification code. Please make sure your redirect_uri is identical"
                    + " to the one you used in the OAuth dialog request");
        }
        String token = token("IGQ");
        issued.note(InstagramApiController.PROVIDER, "token", token);
        shortLived.put(token, SandboxDemo.INSTAGRAM_USER_ID);
        ObjectNode body = Json.object();
        body.putArray("data").addObject().put("access_token", token)
                .put("user_id", Long.parseLong(SandboxDemo.INSTAGRAM_USER_ID))
                .put("permissions", grant.scope());
        return json(body);
    }

    @GetMapping(InstagramApiController.BASE + "/access_token")
    public ResponseEntity<String> exchange(@RequestParam Map<String, String> query) {
        if (!"ig_exchange_token".equals(query.get("grant_type"))) {
            return InstagramApiController.error(400, "Unsupported grant_type", 100, null);
        }
        if (!APP_SECRET.equals(query.get("client_secret"))) {
            return InstagramApiController.error(400, "Error validating client secret.", 1, null);
        }
        String account = shortLived.remove(Optional.ofNullable(query.get("access_token")).orElse(""));
        if (account == null) {
            return InstagramApiController.error(400, "Invalid OAuth access token - Cannot parse access token", 190,
                    null);
        }
        if (refusesExchange.get()) {
            return InstagramApiController.error(400, "(#10) Application does not have permission for this action",
                    10, null);
        }
        String token = token("IGAA");
        issued.note(InstagramApiController.PROVIDER, "token", token);
        accounts.register(account, SandboxDemo.INSTAGRAM_USERNAME, token, Duration.ofSeconds(LONG_LIVED_SECONDS),
                Duration.ZERO);
        return json(Json.object().put("access_token", token).put("token_type", "bearer")
                .put("expires_in", LONG_LIVED_SECONDS));
    }

    /** Instagram's OAuth endpoints' error body. */
    private static ResponseEntity<String> oauthError(String message) {
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_JSON).body(Json.object()
                .put("error_type", "OAuthException").put("code", 400).put("error_message", message).toString());
    }

    private static ResponseEntity<String> json(ObjectNode body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.write(body));
    }

    private String token(String prefix) {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
