package io.herald.sandbox.facebook;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.OAuthIssued;
import io.herald.sandbox.SandboxDemo;
import io.herald.sandbox.SandboxState;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Facebook Login as Meta serves it, for the sandbox's app ({@link #APP_ID}): the login dialog
 * (approves at once for the sandbox's user, or declines while {@code /sandbox/_admin/facebook/login}
 * says so), the code exchange (with the PKCE verifier when the dialog had a challenge; a code works
 * once), the long-lived exchange ({@code grant_type=fb_exchange_token}) and {@code /me/accounts}
 * with a Page token per Page, which the Page endpoints then accept. Errors use the Graph envelope.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class FacebookLoginController {

    public static final String APP_ID = "1234567890123456";
    public static final String APP_SECRET = "sandbox-facebook-app-secret";
    /** The Pages the sandbox's user manages: the demo Page and a second one. */
    public static final Map<String, String> PAGES = Map.of(SandboxDemo.FACEBOOK_PAGE, "Herald Demo Page",
            "100200300400600", "Herald Second Page");

    private record Grant(String redirectUri, String challenge) {
    }

    private final SandboxState state;
    private final OAuthIssued issued;
    private final Map<String, Grant> codes = new ConcurrentHashMap<>();
    private final Map<String, Boolean> shortLivedTokens = new ConcurrentHashMap<>();
    private final Map<String, Boolean> userTokens = new ConcurrentHashMap<>();
    private final AtomicBoolean declines = new AtomicBoolean();
    private final SecureRandom random = new SecureRandom();

    public FacebookLoginController(SandboxState state, OAuthIssued issued) {
        this.state = state;
        this.issued = issued;
        issued.note("facebook", "client_secret", APP_SECRET);
    }

    /** {@code {"declines": true}}: the user declines the next dialogs until set back. */
    @PostMapping("/sandbox/_admin/facebook/login")
    public ResponseEntity<String> configure(@RequestBody Map<String, Object> settings) {
        declines.set(Boolean.TRUE.equals(settings.get("declines")));
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/sandbox/facebook/www/{version}/dialog/oauth")
    public ResponseEntity<String> dialog(@PathVariable("version") String version,
                                         @RequestParam Map<String, String> params) {
        String redirect = params.get("redirect_uri");
        if (!APP_ID.equals(params.get("client_id")) || redirect == null || !redirect.matches("https?://.+")) {
            return ResponseEntity.badRequest().contentType(MediaType.TEXT_HTML)
                    .body("<html><body>Invalid App ID or redirect URI</body></html>");
        }
        String query;
        if (declines.get()) {
            query = "error=access_denied&error_code=200&error_description=" + encode("Permissions error")
                    + "&error_reason=user_denied";
        } else {
            String code = token("AQ");
            issued.note("facebook", "code", code);
            codes.put(code, new Grant(redirect, params.get("code_challenge")));
            query = "code=" + encode(code);
        }
        if (params.get("state") != null) {
            query += "&state=" + encode(params.get("state"));
        }
        return ResponseEntity.status(HttpStatus.FOUND)
                .location(URI.create(redirect + (redirect.contains("?") ? "&" : "?") + query + "#_=_")).build();
    }

    @GetMapping("/sandbox/facebook/{version}/oauth/access_token")
    public ResponseEntity<String> accessToken(@PathVariable("version") String version,
                                              @RequestParam Map<String, String> params) {
        if (!APP_ID.equals(params.get("client_id"))) {
            return error(400, 101, "Error validating application. Invalid application ID.");
        }
        if (!APP_SECRET.equals(params.get("client_secret"))) {
            return error(400, 1, "Error validating client secret.");
        }
        if ("fb_exchange_token".equals(params.get("grant_type"))) {
            if (shortLivedTokens.remove(Optional.ofNullable(params.get("fb_exchange_token")).orElse("")) == null) {
                return error(400, 190, "Invalid OAuth access token - Cannot parse access token");
            }
            String userToken = token("EAAL");
            issued.note("facebook", "token", userToken);
            userTokens.put(userToken, true);
            state.register(new SandboxState.FacebookToken(userToken, SandboxDemo.FACEBOOK_PAGE,
                    SandboxState.FacebookTokenKind.USER));
            return token(userToken, 5_183_944);
        }
        Grant grant = codes.remove(Optional.ofNullable(params.get("code")).orElse(""));
        if (grant == null) {
            return error(400, 100, "This authorization code has been used.");
        }
        if (!grant.redirectUri().equals(params.get("redirect_uri"))) {
            return error(400, 100, "Error validating verification code. Please make sure your redirect_uri is"
                    + " identical to the one you used in the OAuth dialog request");
        }
        if (grant.challenge() != null && !grant.challenge().equals(challenge(params.get("code_verifier")))) {
            return error(400, 100, "Invalid code verifier.");
        }
        String shortLived = token("EAAS");
        issued.note("facebook", "token", shortLived);
        shortLivedTokens.put(shortLived, true);
        return token(shortLived, 5_183);
    }

    @GetMapping("/sandbox/facebook/{version}/me/accounts")
    public ResponseEntity<String> accounts(@PathVariable("version") String version,
                                           @RequestParam Map<String, String> params,
                                           @org.springframework.web.bind.annotation.RequestHeader(
                                                   name = "Authorization", required = false) String authorization) {
        String token = params.get("access_token");
        if (token == null && authorization != null && authorization.startsWith("Bearer ")) {
            token = authorization.substring("Bearer ".length());
        }
        if (token == null || !userTokens.containsKey(token)) {
            return error(400, 190, "Invalid OAuth access token - Cannot parse access token");
        }
        ObjectNode body = Json.object();
        ArrayNode data = body.putArray("data");
        for (String pageId : List.copyOf(new java.util.TreeSet<>(PAGES.keySet()))) {
            String pageToken = token("EAAP");
            issued.note("facebook", "token", pageToken);
            state.register(new SandboxState.FacebookToken(pageToken, pageId, SandboxState.FacebookTokenKind.PAGE));
            data.addObject().put("access_token", pageToken).put("category", "Software").put("name", PAGES.get(pageId))
                    .put("id", pageId).putArray("tasks").add("ANALYZE").add("ADVERTISE").add("MODERATE")
                    .add("CREATE_CONTENT").add("MANAGE");
        }
        body.putObject("paging").putObject("cursors").put("before", "QVFIU").put("after", "QVFIU");
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body.toString());
    }

    private static ResponseEntity<String> token(String token, long expiresIn) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.object()
                .put("access_token", token).put("token_type", "bearer").put("expires_in", expiresIn).toString());
    }

    private static ResponseEntity<String> error(int status, int code, String message) {
        ObjectNode body = Json.object();
        body.putObject("error").put("message", message).put("type", "OAuthException").put("code", code)
                .put("fbtrace_id", "AbCdEfGhIjK");
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(body.toString());
    }

    private String token(String prefix) {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String challenge(String verifier) {
        if (verifier == null) {
            return null;
        }
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
