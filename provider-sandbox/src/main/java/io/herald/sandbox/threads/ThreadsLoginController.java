package io.herald.sandbox.threads;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.OAuthIssued;
import io.herald.sandbox.SandboxDemo;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 * Threads' OAuth for the sandbox's app ({@link #APP_ID}): the authorization page under
 * {@code /sandbox/threads/www} approving at once for the demo's profile (or declining,
 * {@code error=access_denied}, while {@code /sandbox/_admin/threads/login} says so), the code
 * exchange at {@code POST /sandbox/threads/v1.0/oauth/access_token} (a code works once, with the
 * app's secret and the same redirect URI) giving a short-lived token and the user id, and the
 * long-lived exchange {@code GET /sandbox/threads/v1.0/access_token?grant_type=th_exchange_token}
 * (refused while the admin endpoint says {@code refusesExchange}) giving a 60-day token the API then
 * accepts. Errors in the Graph envelope ({@code type: "OAuthException"}).
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class ThreadsLoginController {

    public static final String APP_ID = "880011223344556";
    public static final String APP_SECRET = "sandbox-threads-app-secret";
    private static final String PROVIDER = "threads";

    private record Grant(String redirectUri) {
    }

    private final ThreadsAccounts accounts;
    private final OAuthIssued issued;
    private final Map<String, Grant> codes = new ConcurrentHashMap<>();
    private final Set<String> usedCodes = ConcurrentHashMap.newKeySet();
    private final Map<String, String> shortLived = new ConcurrentHashMap<>();
    private final AtomicBoolean declines = new AtomicBoolean();
    private final AtomicBoolean refusesExchange = new AtomicBoolean();
    private final SecureRandom random = new SecureRandom();

    ThreadsLoginController(ThreadsAccounts accounts, OAuthIssued issued) {
        this.accounts = accounts;
        this.issued = issued;
        issued.note(PROVIDER, "client_secret", APP_SECRET);
    }

    /**
     * {@code {"declines": true}}: the user declines the next authorizations; {@code {"refusesExchange":
     * true}}: the long-lived token exchange is refused; each until set back.
     */
    @PostMapping("/sandbox/_admin/threads/login")
    public ResponseEntity<Void> configure(@RequestBody Map<String, Object> settings) {
        if (settings.containsKey("declines")) {
            declines.set(Boolean.TRUE.equals(settings.get("declines")));
        }
        if (settings.containsKey("refusesExchange")) {
            refusesExchange.set(Boolean.TRUE.equals(settings.get("refusesExchange")));
        }
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/sandbox/threads/www/oauth/authorize")
    public ResponseEntity<String> authorize(@RequestParam Map<String, String> params) {
        String redirect = params.get("redirect_uri");
        if (!APP_ID.equals(params.get("client_id")) || redirect == null || !redirect.matches("https?://[^#]+")
                || !"code".equals(params.get("response_type"))) {
            return ResponseEntity.badRequest().contentType(MediaType.TEXT_HTML)
                    .body("<html><body>Invalid App ID or redirect URI</body></html>");
        }
        String query;
        if (declines.get()) {
            query = "error=access_denied&error_reason=user_denied&error_description=" + encode("Permissions error");
        } else {
            String code = token("AQD");
            issued.note(PROVIDER, "code", code);
            codes.put(code, new Grant(redirect));
            query = "code=" + encode(code);
        }
        if (params.get("state") != null) {
            query += "&state=" + encode(params.get("state"));
        }
        return ResponseEntity.status(HttpStatus.FOUND)
                .location(URI.create(redirect + (redirect.contains("?") ? "&" : "?") + query + "#_")).build();
    }

    @PostMapping(ThreadsApiController.BASE + "/oauth/access_token")
    public ResponseEntity<String> accessToken(@RequestParam Map<String, String> form) {
        if (!APP_ID.equals(form.get("client_id"))) {
            return error(400, 101, null, "Error validating application. Invalid application ID.");
        }
        if (!APP_SECRET.equals(form.get("client_secret"))) {
            return error(400, 1, null, "Error validating client secret.");
        }
        if (!"authorization_code".equals(form.get("grant_type"))) {
            return error(400, 100, null, "Param grant_type must be authorization_code");
        }
        String code = Optional.ofNullable(form.get("code")).orElse("");
        Grant grant = codes.remove(code);
        if (grant == null) {
            return usedCodes.contains(code) ? error(400, 100, 36009, "This authorization code has been used.")
                    : error(400, 100, null, "Invalid verification code format.");
        }
        usedCodes.add(code);
        if (!grant.redirectUri().equals(form.get("redirect_uri"))) {
            return error(400, 100, null, "Error validating verification code. Please make sure your redirect_uri is"
                    + " identical to the one you used in the OAuth dialog request");
        }
        String token = token("THQVJ");
        issued.note(PROVIDER, "token", token);
        shortLived.put(token, SandboxDemo.THREADS_USER_ID);
        return json(Json.object().put("access_token", token)
                .put("user_id", Long.parseLong(SandboxDemo.THREADS_USER_ID)));
    }

    @GetMapping(ThreadsApiController.BASE + "/access_token")
    public ResponseEntity<String> exchange(@RequestParam Map<String, String> query) {
        if (!"th_exchange_token".equals(query.get("grant_type"))) {
            return error(400, 100, null, "Param grant_type must be th_exchange_token");
        }
        if (!APP_SECRET.equals(query.get("client_secret"))) {
            return error(400, 1, null, "Error validating client secret.");
        }
        String user = shortLived.remove(Optional.ofNullable(query.get("access_token")).orElse(""));
        if (user == null) {
            return error(400, 190, null, "Invalid OAuth access token - Cannot parse access token");
        }
        if (refusesExchange.get()) {
            return error(400, 10, null, "(#10) Application does not have permission for this action");
        }
        String token = token("THAA");
        issued.note(PROVIDER, "token", token);
        accounts.register(SandboxDemo.THREADS_USERNAME, token, user);
        return json(Json.object().put("access_token", token).put("token_type", "bearer")
                .put("expires_in", ThreadsAccounts.TOKEN_LIFETIME.toSeconds()));
    }

    private static ResponseEntity<String> error(int status, int code, Integer subcode, String message) {
        ObjectNode error = Json.object().put("message", message).put("type", "OAuthException").put("code", code);
        if (subcode != null) {
            error.put("error_subcode", subcode);
        }
        error.put("fbtrace_id", "A" + Long.toHexString(System.nanoTime()));
        ObjectNode body = Json.object();
        body.set("error", error);
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(Json.write(body));
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
