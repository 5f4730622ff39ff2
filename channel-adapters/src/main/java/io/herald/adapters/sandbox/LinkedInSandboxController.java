package io.herald.adapters.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Json;
import io.herald.adapters.sandbox.SandboxState.LinkedInToken;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * LinkedIn's Posts API under {@code /sandbox/linkedin/rest/posts}: version and protocol headers,
 * token scopes, 201 with {@code x-restli-id}, the 422 duplicate naming the earlier post, and the
 * little-text behaviour: an unescaped reserved character silently cuts the commentary.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class LinkedInSandboxController {

    static final String PROVIDER = "linkedin";
    /** Versions older than this are "retired" in the sandbox. */
    static final String OLDEST_ACTIVE_VERSION = "202511";
    private static final String RESERVED = "\\|{}@[]()<>#*_~";

    private final SandboxState state;

    public LinkedInSandboxController(SandboxState state) {
        this.state = state;
    }

    @PostMapping("/sandbox/linkedin/rest/posts")
    public DeferredResult<ResponseEntity<String>> create(@RequestBody(required = false) String rawBody,
                                                        HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        JsonNode body = Json.parse(rawBody);
        String author = Json.text(body, "author");
        Optional<SandboxFault> fault = author == null ? Optional.empty()
                : state.takeFault(PROVIDER, author, SandboxFault.Operation.PUBLISH);
        if (fault.isPresent()) {
            SandboxFault f = fault.get();
            switch (f.type()) {
                case RESET_AFTER_READ:
                    return Replies.closeConnection(response);
                case ERROR_5XX_NO_EFFECT:
                    return Replies.now(state, serverError());
                case RATE_LIMIT:
                    return Replies.now(state, rateLimited(f));
                case TOKEN_ERROR:
                    return Replies.now(state, error(401, 65600, "INVALID_ACCESS_TOKEN", "Invalid access token"));
                default:
                    break;
            }
        }
        ResponseEntity<String> refusal = checkHeaders(request);
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        Optional<LinkedInToken> token = state.linkedInToken(bearer(request));
        if (token.isEmpty()) {
            return Replies.now(state, error(401, 65600, "INVALID_ACCESS_TOKEN", "Invalid access token"));
        }
        if (author == null || !author.equals(token.get().author())
                || !token.get().scopes().contains(writeScope(author))) {
            return Replies.now(state, error(403, 100, "ACCESS_DENIED",
                    "Not enough permissions to access: partnerApiPostsExternal.CREATE.20261101"));
        }
        String stored = Json.text(body, "commentary");
        if (stored == null) {
            return Replies.now(state, error(422, 0, null, "/commentary :: field is required"));
        }
        String shown = render(stored);
        for (SandboxPost earlier : state.posts(PROVIDER, author)) {
            if (earlier.text().equals(shown)) {
                return Replies.now(state, duplicate(earlier.id()));
            }
        }
        String urn = "urn:li:share:" + (7_100_000_000_000_000_000L + state.nextId());
        SandboxPost post = new SandboxPost(urn, author, shown, stored, null, null,
                Json.text(body, "lifecycleState"), Instant.now(), null,
                "https://www.linkedin.com/feed/update/" + urn + "/");
        if (fault.isEmpty()) {
            state.addPost(PROVIDER, post);
            return Replies.now(state, created(urn));
        }
        SandboxFault f = fault.get();
        return switch (f.type()) {
            case DELAY_THEN_CREATE -> {
                state.addPost(PROVIDER, post);
                yield Replies.after(state, f.delayMillis(), () -> created(urn));
            }
            case CREATE_AFTER -> {
                state.later(f.delayMillis(), () -> state.addPost(PROVIDER, new SandboxPost(urn, author, shown, stored,
                        null, null, post.status(), post.createdAt().plusMillis(f.delayMillis()), null, post.url())));
                yield Replies.hold(state);
            }
            case ERROR_5XX_WITH_EFFECT -> {
                state.addPost(PROVIDER, post);
                yield Replies.now(state, serverError());
            }
            default -> throw new IllegalStateException("unexpected fault " + f.type());
        };
    }

    @GetMapping(value = "/sandbox/linkedin/rest/posts", params = "q=author")
    public DeferredResult<ResponseEntity<String>> byAuthor(@RequestParam String author,
                                                          @RequestParam(defaultValue = "10") int count,
                                                          @RequestParam(defaultValue = "0") int start,
                                                          HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, author, SandboxFault.Operation.READ);
        if (fault.isPresent()) {
            SandboxFault f = fault.get();
            return switch (f.type()) {
                case RESET_AFTER_READ -> Replies.closeConnection(response);
                case CREATE_AFTER -> Replies.hold(state);
                case RATE_LIMIT -> Replies.now(state, rateLimited(f));
                case TOKEN_ERROR -> Replies.now(state, error(401, 65600, "INVALID_ACCESS_TOKEN", "Invalid access token"));
                case DELAY_THEN_CREATE -> Replies.after(state, f.delayMillis(), () -> list(author, count, start));
                default -> Replies.now(state, serverError());
            };
        }
        ResponseEntity<String> refusal = checkHeaders(request);
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        Optional<LinkedInToken> token = state.linkedInToken(bearer(request));
        if (token.isEmpty()) {
            return Replies.now(state, error(401, 65600, "INVALID_ACCESS_TOKEN", "Invalid access token"));
        }
        if (!author.equals(token.get().author()) || !token.get().scopes().contains(readScope(author))) {
            return Replies.now(state, error(403, 100, "ACCESS_DENIED",
                    "Not enough permissions to access: partnerApiPostsExternal.FINDER-author.20261101"));
        }
        if (count < 1 || count > 100) {
            return Replies.now(state, error(400, 0, "PARAM_INVALID", "count must be between 1 and 100"));
        }
        return Replies.now(state, list(author, count, start));
    }

    private ResponseEntity<String> list(String author, int count, int start) {
        List<SandboxPost> posts = new ArrayList<>(state.posts(PROVIDER, author));
        Collections.reverse(posts);
        List<SandboxPost> slice = posts.subList(Math.min(start, posts.size()), Math.min(start + count, posts.size()));
        ObjectNode body = Json.object();
        ObjectNode paging = body.putObject("paging");
        paging.put("start", start);
        paging.put("count", count);
        paging.putArray("links");
        ArrayNode elements = body.putArray("elements");
        for (SandboxPost post : slice) {
            long millis = post.createdAt().toEpochMilli();
            elements.addObject()
                    .put("id", post.id())
                    .put("author", post.target())
                    .put("commentary", post.storedText())
                    .put("visibility", "PUBLIC")
                    .put("lifecycleState", post.status())
                    .put("createdAt", millis)
                    .put("publishedAt", millis)
                    .put("lastModifiedAt", millis);
        }
        return Replies.json(200, body, traceHeaders());
    }

    /** What LinkedIn shows: escapes removed, and the text cut at the first unescaped reserved character. */
    static String render(String commentary) {
        StringBuilder shown = new StringBuilder();
        for (int i = 0; i < commentary.length(); i++) {
            char c = commentary.charAt(i);
            if (c == '\\' && i + 1 < commentary.length() && RESERVED.indexOf(commentary.charAt(i + 1)) >= 0) {
                shown.append(commentary.charAt(++i));
            } else if (RESERVED.indexOf(c) >= 0) {
                break;
            } else {
                shown.append(c);
            }
        }
        return shown.toString();
    }

    static String writeScope(String author) {
        return author.startsWith("urn:li:organization:") ? "w_organization_social" : "w_member_social";
    }

    static String readScope(String author) {
        return author.startsWith("urn:li:organization:") ? "r_organization_social" : "r_member_social";
    }

    private static String bearer(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        return header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).trim() : null;
    }

    private static ResponseEntity<String> checkHeaders(HttpServletRequest request) {
        String version = request.getHeader("LinkedIn-Version");
        if (version == null || version.isBlank()) {
            return error(400, 0, "VERSION_MISSING",
                    "A version must be present. Please specify a version by adding the LinkedIn-Version header.");
        }
        if (!version.matches("\\d{6}") || version.compareTo(OLDEST_ACTIVE_VERSION) < 0) {
            return error(426, 0, "NONEXISTENT_VERSION", "Requested version " + version + " is not active");
        }
        return null;
    }

    private static ResponseEntity<String> created(String urn) {
        HttpHeaders headers = traceHeaders();
        headers.set("x-restli-id", urn);
        headers.set("Location", "/rest/posts/" + java.net.URLEncoder.encode(urn, java.nio.charset.StandardCharsets.UTF_8));
        return ResponseEntity.status(HttpStatus.CREATED).headers(headers).build();
    }

    private static ResponseEntity<String> duplicate(String earlierUrn) {
        ObjectNode body = Json.object();
        body.put("message", "ERROR :: /commentary :: Content is a duplicate of " + earlierUrn);
        body.putObject("errorDetails").putArray("inputErrors").addObject()
                .put("description", "Duplicate post is detected")
                .put("code", "DUPLICATE_POST")
                .putObject("input");
        body.put("status", 422);
        return Replies.json(422, body, traceHeaders());
    }

    private static ResponseEntity<String> rateLimited(SandboxFault fault) {
        HttpHeaders headers = traceHeaders();
        if (fault.retryAfterSeconds() > 0) {
            headers.set("Retry-After", Long.toString(fault.retryAfterSeconds()));
        }
        return Replies.json(429, errorBody(429, 101, "TOO_MANY_REQUESTS",
                "Resource level throttle APPLICATION DAY limit for calls to this resource is reached."), headers);
    }

    private static ResponseEntity<String> serverError() {
        return Replies.json(500, errorBody(500, 0, null, "Internal Server Error"), traceHeaders());
    }

    private static ResponseEntity<String> error(int status, int serviceErrorCode, String code, String message) {
        return Replies.json(status, errorBody(status, serviceErrorCode, code, message), traceHeaders());
    }

    private static ObjectNode errorBody(int status, int serviceErrorCode, String code, String message) {
        ObjectNode body = Json.object();
        body.put("status", status);
        if (serviceErrorCode > 0) {
            body.put("serviceErrorCode", serviceErrorCode);
        }
        if (code != null) {
            body.put("code", code);
        }
        body.put("message", message);
        return body;
    }

    private static HttpHeaders traceHeaders() {
        HttpHeaders headers = new HttpHeaders();
        headers.set("x-li-uuid", UUID.randomUUID().toString().replace("-", "").substring(0, 22));
        headers.set("x-li-fabric", "prod-lor1");
        return headers;
    }
}
