package io.herald.access;

import static io.herald.access.Role.ADMIN;
import static io.herald.access.Role.AUDITOR;
import static io.herald.access.Role.OPERATOR;
import static io.herald.access.Role.PUBLISHER;
import static io.herald.access.Role.SYSTEM;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.springframework.http.server.PathContainer;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;
import org.springframework.web.util.UrlPathHelper;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Which role may call which endpoint (the matrix in docs/api.md#authentication-and-roles), and workspace isolation: a key
 * used on another workspace's path is denied as if the resource did not exist (404). Deny by
 * default: a path or method no rule names is refused for every key (403), so an endpoint added
 * later (an actuator endpoint, a new controller) is closed until a rule here opens it. Paths are
 * matched decoded and normalised, as Spring MVC matches them.
 */
public final class AccessRules implements AuthorizationManager<RequestAuthorizationContext> {

    /** Marks a denial that must look like a missing resource. */
    static final String HIDDEN_ATTRIBUTE = AccessRules.class.getName() + ".hidden";
    /** Marks a denial because no rule names the request's method and path. */
    static final String UNLISTED_ATTRIBUTE = AccessRules.class.getName() + ".unlisted";

    private static final String WS = "/api/v1/workspaces/{ws}";
    private static final UrlPathHelper PATHS = new UrlPathHelper();
    /** The path is decoded once by {@link UrlPathHelper}; a second decoding would turn %2541 into A. */
    private static final PathContainer.Options DECODED = PathContainer.Options.create('/', false);
    private static final PathPattern WORKSPACE_PATHS = new PathPatternParser().parse(WS + "/**");
    private static final Set<String> READS = Set.of("GET", "HEAD");
    /** A publication as it stood at an instant is for those who look back, not for the calendar system. */
    private static final PathPattern PUBLICATION = new PathPatternParser().parse(WS + "/publications/{id}");
    private static final String AS_OF = "asOf";
    private static final Set<Role> AS_OF_ROLES = EnumSet.of(OPERATOR, AUDITOR);

    private record Rule(String method, PathPattern pattern, Set<Role> roles) {
    }

    /**
     * Open to anyone, for reading: health probes, the scrape, the API description, the console's
     * shell and its chart library, the public keys of the audit checkpoints, and the providers'
     * OAuth callbacks (their single-use, signed {@code state} authenticates them), and the images
     * providers fetch while publishing (their signed, expiring token names the one image).
     */
    private static final List<String> OPEN_READS = List.of(
            "/actuator/health", "/actuator/health/**", "/actuator/prometheus",
            "/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml", "/swagger-ui.html", "/swagger-ui/**",
            "/console", "/console/**", "/webjars/uplot/**", "/favicon.ico", "/api/v1/audit/keys",
            "/oauth/callback/{type}", "/media/public/{token}");

    private final List<PathPattern> openReads;
    private final PathPattern sandbox;
    private final boolean sandboxEnabled;
    private final List<Rule> rules;

    public AccessRules(boolean sandboxEnabled) {
        PathPatternParser parser = new PathPatternParser();
        this.openReads = OPEN_READS.stream().map(parser::parse).toList();
        this.sandbox = parser.parse("/sandbox/**");
        this.sandboxEnabled = sandboxEnabled;
        this.rules = List.of(
                rule(parser, "POST", WS + "/publications", PUBLISHER),
                rule(parser, "GET", WS + "/publications", PUBLISHER, OPERATOR, AUDITOR),
                rule(parser, "GET", WS + "/publications/{id}", PUBLISHER, OPERATOR, AUDITOR),
                rule(parser, "POST", WS + "/publications/{id}/execute", PUBLISHER),
                rule(parser, "POST", WS + "/publications/{id}/decisions", OPERATOR),
                rule(parser, "POST", WS + "/publications/{id}/reconcile", OPERATOR),
                rule(parser, "GET", WS + "/publications/{id}/events", AUDITOR),
                rule(parser, "GET", WS + "/decisions", OPERATOR),
                rule(parser, "GET", WS + "/counts", OPERATOR, AUDITOR),
                rule(parser, "GET", WS + "/stats", OPERATOR, AUDITOR),
                rule(parser, "GET", WS + "/channels", PUBLISHER, OPERATOR, ADMIN),
                rule(parser, "GET", WS + "/channel-types", PUBLISHER, OPERATOR, ADMIN),
                rule(parser, "PUT", WS + "/channels/{channelId}", ADMIN),
                rule(parser, "POST", WS + "/channels/{channelId}/probe", ADMIN),
                rule(parser, "POST", WS + "/channels/{channelId}/connect", ADMIN),
                rule(parser, "POST", WS + "/channels/{channelId}/connect/choice", ADMIN),
                rule(parser, "PUT", WS + "/webhooks/{webhookId}", ADMIN),
                rule(parser, "GET", WS + "/webhooks", ADMIN, OPERATOR),
                rule(parser, "DELETE", WS + "/webhooks/{webhookId}", ADMIN),
                rule(parser, "POST", WS + "/webhooks/{webhookId}/secret", ADMIN),
                rule(parser, "POST", WS + "/webhooks/{webhookId}/resume", ADMIN),
                rule(parser, "GET", WS + "/webhooks/{webhookId}/deliveries", ADMIN, OPERATOR),
                rule(parser, "POST", WS + "/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", ADMIN, OPERATOR),
                rule(parser, "POST", WS + "/media", PUBLISHER),
                rule(parser, "GET", WS + "/media/{mediaId}", PUBLISHER, OPERATOR, AUDITOR),
                rule(parser, "GET", WS + "/media/{mediaId}/content", PUBLISHER, OPERATOR, AUDITOR),
                rule(parser, "DELETE", WS + "/media/{mediaId}", PUBLISHER),
                rule(parser, "GET", WS + "/audit/events", AUDITOR),
                rule(parser, "GET", WS + "/audit/verify", AUDITOR),
                rule(parser, "POST", WS + "/keys", ADMIN, SYSTEM),
                rule(parser, "GET", WS + "/keys", ADMIN, SYSTEM),
                rule(parser, "DELETE", WS + "/keys/{keyId}", ADMIN, SYSTEM),
                rule(parser, "PUT", WS + "/signing-secret", ADMIN),
                // the system key can switch signatures off for a workspace that lost its secret
                rule(parser, "DELETE", WS + "/signing-secret", ADMIN, SYSTEM),
                rule(parser, "POST", "/api/v1/admin/workspaces", SYSTEM),
                rule(parser, "GET", "/api/v1/admin/projections", SYSTEM),
                rule(parser, "POST", "/api/v1/admin/projections/{name}/rebuild", SYSTEM),
                rule(parser, "GET", "/api/v1/admin/dead-letters", SYSTEM),
                rule(parser, "POST", "/api/v1/admin/audit/verify", SYSTEM),
                rule(parser, "GET", "/api/v1/admin/audit/verify/{jobId}", SYSTEM),
                rule(parser, "GET", "/api/v1/admin/audit/chain", SYSTEM),
                rule(parser, "POST", "/api/v1/admin/secrets/re-encrypt", SYSTEM),
                // which build runs (version, commit): for the operator of the installation, not the public
                rule(parser, "GET", "/actuator/info", SYSTEM),
                rule(parser, "GET", "/api/v1/audit/events", SYSTEM),
                rule(parser, "GET", "/api/v1/audit/verify", SYSTEM));
    }

    private static Rule rule(PathPatternParser parser, String method, String pattern, Role... roles) {
        return new Rule(method, parser.parse(pattern), EnumSet.copyOf(List.of(roles)));
    }

    /** Requests anyone may send: reads of the open paths, the sandbox when it is on, error dispatches. */
    public boolean isOpen(HttpServletRequest request) {
        if (request.getDispatcherType() == DispatcherType.ERROR) {
            return true;
        }
        PathContainer path = path(request);
        if (sandboxEnabled && sandbox.matches(path)) {
            return true;
        }
        return READS.contains(request.getMethod()) && openReads.stream().anyMatch(p -> p.matches(path));
    }

    @Override
    public AuthorizationDecision check(Supplier<Authentication> authentication, RequestAuthorizationContext context) {
        HttpServletRequest request = context.getRequest();
        if (isOpen(request)) {
            return new AuthorizationDecision(true);
        }
        if (!(authentication.get() instanceof ApiKeyAuthentication key)) {
            return new AuthorizationDecision(false);
        }
        Caller caller = key.getPrincipal();
        PathContainer path = path(request);
        String method = "HEAD".equals(request.getMethod()) ? "GET" : request.getMethod();

        PathPattern.PathMatchInfo inWorkspace = WORKSPACE_PATHS.matchAndExtract(path);
        if (inWorkspace != null && !caller.isSystem()
                && !inWorkspace.getUriVariables().get("ws").equals(caller.workspaceId())) {
            request.setAttribute(HIDDEN_ATTRIBUTE, Boolean.TRUE);
            return new AuthorizationDecision(false);
        }
        if ("GET".equals(method) && request.getParameter(AS_OF) != null && PUBLICATION.matches(path)) {
            return new AuthorizationDecision(!Collections.disjoint(AS_OF_ROLES, caller.roles()));
        }
        for (Rule rule : rules) {
            if (rule.method().equals(method) && rule.pattern().matches(path)) {
                return new AuthorizationDecision(!Collections.disjoint(rule.roles(), caller.roles()));
            }
        }
        request.setAttribute(UNLISTED_ATTRIBUTE, Boolean.TRUE);
        return new AuthorizationDecision(false);
    }

    /** The decoded path within the application, without {@code ;} parameters and with {@code //} collapsed. */
    static PathContainer path(HttpServletRequest request) {
        return PathContainer.parsePath(PATHS.getPathWithinApplication(request), DECODED);
    }
}
