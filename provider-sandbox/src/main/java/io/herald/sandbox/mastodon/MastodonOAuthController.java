package io.herald.sandbox.mastodon;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.OAuthIssued;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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
 * The instance's OAuth, as Mastodon 4.3 serves it: apps registered with {@code POST /api/v1/apps}
 * (counted, so a test sees Herald register once per instance), {@code /oauth/authorize} approving at
 * once for a new account of the instance, and {@code /oauth/token} exchanging a code once, checking
 * the app, its secret, the redirect URI and the PKCE verifier. While
 * {@code /sandbox/_admin/mastodon/login} says {@code declines}, the user denies at the authorize page
 * ({@code error=access_denied}, as Doorkeeper sends it).
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class MastodonOAuthController {

    private static final String BASE = MastodonApiController.BASE;

    private record App(String id, String clientId, String clientSecret, String redirectUri, String scopes) {
    }

    private record Grant(App app, String redirectUri, String challenge, String scopes) {
    }

    private final MastodonInstance instance;
    private final OAuthIssued issued;
    private final AtomicBoolean declines = new AtomicBoolean();
    private final Map<String, App> apps = new ConcurrentHashMap<>();
    private final Map<String, Grant> codes = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final SecureRandom random = new SecureRandom();

    MastodonOAuthController(MastodonInstance instance, OAuthIssued issued) {
        this.instance = instance;
        this.issued = issued;
    }

    /** {@code {"declines": true}}: the user denies the next authorizations until set back. */
    @PostMapping("/sandbox/_admin/mastodon/login")
    public ResponseEntity<Void> configure(@RequestBody Map<String, Object> settings) {
        declines.set(Boolean.TRUE.equals(settings.get("declines")));
        return ResponseEntity.noContent().build();
    }

    @PostMapping(BASE + "/api/v1/apps")
    public ResponseEntity<String> register(@RequestParam Map<String, String> params) {
        String name = params.get("client_name");
        String redirect = params.get("redirect_uris");
        if (name == null || name.isBlank() || redirect == null || redirect.isBlank()) {
            return error(422, "Validation failed: Name can't be blank, Redirect URI can't be blank");
        }
        String scopes = Optional.ofNullable(params.get("scopes")).orElse("read");
        App app = new App(Long.toString(ids.incrementAndGet()), token(), token(), redirect, scopes);
        apps.put(app.clientId(), app);
        issued.note("mastodon", "client_secret", app.clientSecret());
        ObjectNode body = Json.object().put("id", app.id()).put("name", name).put("website", params.get("website"))
                .put("scopes", scopes).put("redirect_uri", redirect).put("client_id", app.clientId())
                .put("client_secret", app.clientSecret()).put("vapid_key", "BCk-QqERU0q-CfYZjcuB6lnyyOYfJ2AifKqfeGIm7Z-HiTU5T9eTG5GxVA0_OH5mMlI4UkkDTpaZwozy0TzdZ2M=");
        body.putArray("redirect_uris").add(redirect);
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body.toString());
    }

    /** How many apps were registered on the instance (a sandbox admin read). */
    @GetMapping("/sandbox/_admin/mastodon/apps")
    public Map<String, Integer> registered() {
        return Map.of("count", apps.size());
    }

    @GetMapping(BASE + "/oauth/authorize")
    public ResponseEntity<String> authorize(@RequestParam Map<String, String> params) {
        App app = apps.get(Optional.ofNullable(params.get("client_id")).orElse(""));
        String redirect = params.get("redirect_uri");
        if (app == null || redirect == null || !app.redirectUri().equals(redirect)) {
            return ResponseEntity.badRequest().contentType(MediaType.TEXT_HTML).body(
                    "<html><body>The redirect uri included is not valid.</body></html>");
        }
        String query;
        if (declines.get()) {
            query = "error=access_denied&error_description=" + encode("The resource owner or authorization server"
                    + " denied the request.");
        } else {
            String code = token();
            issued.note("mastodon", "code", code);
            codes.put(code, new Grant(app, redirect, params.get("code_challenge"),
                    Optional.ofNullable(params.get("scope")).orElse("read")));
            query = "code=" + encode(code);
        }
        query += params.get("state") == null ? "" : "&state=" + encode(params.get("state"));
        return ResponseEntity.status(HttpStatus.FOUND).location(URI.create(redirect + "?" + query)).build();
    }

    @PostMapping(BASE + "/oauth/token")
    public ResponseEntity<String> token(@RequestParam Map<String, String> params) {
        Grant grant = codes.remove(Optional.ofNullable(params.get("code")).orElse(""));
        if (grant == null || !grant.app().clientId().equals(params.get("client_id"))
                || !grant.app().clientSecret().equals(params.get("client_secret"))
                || !grant.redirectUri().equals(params.get("redirect_uri"))
                || (grant.challenge() != null && !grant.challenge().equals(challenge(params.get("code_verifier"))))) {
            return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_JSON).body(Json.object()
                    .put("error", "invalid_grant").put("error_description", "The provided authorization grant is"
                            + " invalid, expired, revoked, does not match the redirection URI used in the"
                            + " authorization request, or was issued to another client.").toString());
        }
        String token = token();
        issued.note("mastodon", "token", token);
        instance.register("oauth" + ids.incrementAndGet(), token,
                new HashSet<>(Arrays.asList(grant.scopes().split(" "))));
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.object()
                .put("access_token", token).put("token_type", "Bearer").put("scope", grant.scopes())
                .put("created_at", Instant.now().getEpochSecond()).toString());
    }

    private static ResponseEntity<String> error(int status, String message) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON)
                .body(Json.object().put("error", message).toString());
    }

    private String token() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
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
