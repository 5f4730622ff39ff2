package io.herald.sandbox.linkedin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.OAuthIssued;
import io.herald.sandbox.SandboxDemo;
import io.herald.sandbox.SandboxState;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
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
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Sign In with LinkedIn for the sandbox's app ({@link #CLIENT_ID}): the authorization page approving
 * at once for the sandbox's member ({@link #MEMBER}), the code exchange at {@code /accessToken}
 * (a code works once, with the app's secret and the same redirect URI) giving a 60-day token with
 * the scopes asked for, which the Posts endpoints then accept, {@code /v2/userinfo}, and
 * {@code /rest/organizationAcls}: the organizations the member administers (none unless
 * {@code /sandbox/_admin/linkedin/login} names some), which a token with an organization admin scope
 * lists and may then post as. While that admin endpoint says {@code declines}, the member cancels at
 * the authorization page ({@code error=user_cancelled_authorize}, as LinkedIn sends it).
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class LinkedInLoginController {

    public static final String CLIENT_ID = "86sandboxli";
    public static final String CLIENT_SECRET = "sandbox-linkedin-client-secret";
    /** The member signed in at the authorization page: the demo's reader, so the demo connects it this way. */
    public static final String MEMBER = SandboxDemo.LINKEDIN_MEMBER;

    private record Grant(String redirectUri, String scope) {
    }

    private final SandboxState state;
    private final OAuthIssued issued;
    private final Map<String, Grant> codes = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> tokens = new ConcurrentHashMap<>();
    private final Set<String> organizations = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean declines = new AtomicBoolean();
    private final SecureRandom random = new SecureRandom();

    public LinkedInLoginController(SandboxState state, OAuthIssued issued) {
        this.state = state;
        this.issued = issued;
        issued.note("linkedin", "client_secret", CLIENT_SECRET);
    }

    /**
     * {@code {"declines": true}}: the member cancels the next authorizations until set back;
     * {@code {"organizations": ["urn:li:organization:…"]}}: the organizations the member administers
     * from now on (an empty list: none).
     */
    @PostMapping("/sandbox/_admin/linkedin/login")
    public ResponseEntity<Void> configure(@RequestBody Map<String, Object> settings) {
        if (settings.containsKey("declines")) {
            declines.set(Boolean.TRUE.equals(settings.get("declines")));
        }
        if (settings.get("organizations") instanceof java.util.List<?> urns) {
            organizations.clear();
            urns.forEach(urn -> {
                organizations.add(String.valueOf(urn));
                state.administer(String.valueOf(urn), MEMBER);
            });
        }
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/sandbox/linkedin/oauth/v2/authorization")
    public ResponseEntity<String> authorization(@RequestParam Map<String, String> params) {
        String redirect = params.get("redirect_uri");
        if (!CLIENT_ID.equals(params.get("client_id")) || redirect == null || !redirect.matches("https?://.+")) {
            return ResponseEntity.badRequest().contentType(MediaType.TEXT_HTML)
                    .body("<html><body>The redirect_uri does not match the registered value</body></html>");
        }
        String query;
        if (declines.get()) {
            query = "error=user_cancelled_authorize&error_description="
                    + encode("The user cancelled the authorization");
        } else {
            String code = token();
            issued.note("linkedin", "code", code);
            codes.put(code, new Grant(redirect, Optional.ofNullable(params.get("scope")).orElse("")));
            query = "code=" + encode(code);
        }
        query += params.get("state") == null ? "" : "&state=" + encode(params.get("state"));
        return ResponseEntity.status(HttpStatus.FOUND).location(URI.create(redirect + "?" + query)).build();
    }

    @PostMapping("/sandbox/linkedin/oauth/v2/accessToken")
    public ResponseEntity<String> accessToken(@RequestParam Map<String, String> params) {
        Grant grant = codes.remove(Optional.ofNullable(params.get("code")).orElse(""));
        if (grant == null || !CLIENT_ID.equals(params.get("client_id"))
                || !CLIENT_SECRET.equals(params.get("client_secret"))
                || !grant.redirectUri().equals(params.get("redirect_uri"))) {
            return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_JSON).body(Json.object()
                    .put("error", "invalid_request").put("error_description",
                            "Unable to retrieve access token: appid/redirect uri/code verifier does not match"
                                    + " authorization code. Or authorization code expired.").toString());
        }
        String token = "AQV" + token();
        issued.note("linkedin", "token", token);
        LinkedHashSet<String> scopes = new LinkedHashSet<>(Arrays.asList(grant.scope().split("[ ,]+")));
        scopes.remove("");
        state.register(new SandboxState.LinkedInToken(token, MEMBER, scopes));
        tokens.put(token, Set.copyOf(scopes));
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.object()
                .put("access_token", token).put("expires_in", 5_184_000).put("scope", String.join(",", scopes))
                .toString());
    }

    @GetMapping("/sandbox/linkedin/v2/userinfo")
    public ResponseEntity<String> userinfo(@RequestHeader(name = "Authorization", required = false) String authorization) {
        String token = authorization != null && authorization.startsWith("Bearer ")
                ? authorization.substring("Bearer ".length()) : "";
        if (!tokens.containsKey(token)) {
            return ResponseEntity.status(401).contentType(MediaType.APPLICATION_JSON).body(Json.object()
                    .put("serviceErrorCode", 65600).put("message", "Invalid access token").put("status", 401)
                    .toString());
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.object()
                .put("sub", MEMBER.substring("urn:li:person:".length())).put("name", "Herald Sandbox Member")
                .put("given_name", "Herald").put("family_name", "Member").toString());
    }

    /** {@code GET /rest/organizationAcls?q=roleAssignee}: the organizations the token's member administers. */
    @GetMapping("/sandbox/linkedin/rest/organizationAcls")
    public ResponseEntity<String> organizationAcls(
            @RequestHeader(name = "Authorization", required = false) String authorization) {
        String token = authorization != null && authorization.startsWith("Bearer ")
                ? authorization.substring("Bearer ".length()) : "";
        Set<String> scopes = tokens.get(token);
        if (scopes == null) {
            return ResponseEntity.status(401).contentType(MediaType.APPLICATION_JSON).body(Json.object()
                    .put("serviceErrorCode", 65600).put("message", "Invalid access token").put("status", 401)
                    .toString());
        }
        if (!scopes.contains("rw_organization_admin") && !scopes.contains("r_organization_admin")) {
            return ResponseEntity.status(403).contentType(MediaType.APPLICATION_JSON).body(Json.object()
                    .put("serviceErrorCode", 100).put("message", "Not enough permissions to access:"
                            + " organizationAcls.FINDER-roleAssignee.20251101").put("status", 403).toString());
        }
        ObjectNode body = Json.object();
        ArrayNode elements = body.putArray("elements");
        organizations.forEach(urn -> elements.addObject().put("roleAssignee", MEMBER).put("state", "APPROVED")
                .put("role", "ADMINISTRATOR").put("organization", urn));
        body.putObject("paging").put("count", 10).put("start", 0).put("total", organizations.size());
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body.toString());
    }

    private String token() {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
