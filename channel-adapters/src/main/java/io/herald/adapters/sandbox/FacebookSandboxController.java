package io.herald.adapters.sandbox;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Forms;
import io.herald.adapters.http.Json;
import io.herald.adapters.sandbox.SandboxState.FacebookToken;
import io.herald.adapters.sandbox.SandboxState.FacebookTokenKind;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * The Graph API's Page feed: {@code POST/GET /sandbox/facebook/{version}/{page-id}/feed} with
 * Facebook's error bodies, usage headers, trace ids, Page-versus-User tokens, the consecutive
 * duplicate refusal (506) and cursor paging whose {@code next} link carries the access token, as
 * Facebook's does.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class FacebookSandboxController {

    static final String PROVIDER = "facebook";
    private static final DateTimeFormatter CREATED_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssZ").withZone(ZoneOffset.UTC);

    private final SandboxState state;

    public FacebookSandboxController(SandboxState state) {
        this.state = state;
    }

    @PostMapping("/sandbox/facebook/{version}/{pageId}/feed")
    public DeferredResult<ResponseEntity<String>> create(@PathVariable String pageId,
                                                        @RequestParam Map<String, String> params,
                                                        HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, pageId, SandboxFault.Operation.PUBLISH);
        if (fault.isPresent()) {
            DeferredResult<ResponseEntity<String>> early = beforeEffect(fault.get(), response);
            if (early != null || fault.get().type() == SandboxFault.Type.RESET_AFTER_READ) {
                return early;
            }
        }
        ResponseEntity<String> refusal = authorise(token(request, params), pageId, true);
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        String message = params.get("message");
        String link = params.get("link");
        if ((message == null || message.isBlank()) && (link == null || link.isBlank())) {
            return Replies.now(state, error(400, 197, null, "(#197) The post is empty: give it a message or a link."));
        }
        boolean published = !"false".equals(params.get("published"));
        Instant now = Instant.now();
        if (!published && params.containsKey("scheduled_publish_time")) {
            long at;
            try {
                at = Long.parseLong(params.get("scheduled_publish_time"));
            } catch (NumberFormatException e) {
                at = -1;
            }
            if (at < now.plusSeconds(600).getEpochSecond() || at > now.plusSeconds(75L * 24 * 3600).getEpochSecond()) {
                return Replies.now(state, error(400, 100, null, "(#100) The specified scheduled publish time is invalid."));
            }
        }
        Optional<SandboxPost> last = state.lastPost(PROVIDER, pageId);
        if (message != null && last.isPresent() && message.equals(last.get().text())) {
            return Replies.now(state, error(400, 506, null, "(#506) Duplicate status message"));
        }
        String id = pageId + "_" + state.nextId();
        SandboxPost post = new SandboxPost(id, pageId, message, message, link, null,
                published ? "published" : "scheduled", now, null, "https://www.facebook.com/" + id);
        ObjectNode body = Json.object().put("id", id);
        if (fault.isEmpty()) {
            state.addPost(PROVIDER, post);
            return Replies.now(state, Replies.json(200, body, usageHeaders(pageId, 0)));
        }
        return withEffect(fault.get(), post, body, pageId);
    }

    /** Faults that act before anything is stored; null when the fault needs the post created first. */
    private DeferredResult<ResponseEntity<String>> beforeEffect(SandboxFault fault, HttpServletResponse response) {
        return switch (fault.type()) {
            case RESET_AFTER_READ -> Replies.closeConnection(response);
            case ERROR_5XX_NO_EFFECT -> Replies.now(state, serviceError());
            case RATE_LIMIT -> Replies.now(state, rateLimited(fault));
            case TOKEN_ERROR -> Replies.now(state, error(400, 190, 463,
                    "Error validating access token: Session has expired on Sunday, 29-Nov-26 09:00:00 PST. "
                            + "The current time is Sunday, 29-Nov-26 10:00:00 PST."));
            default -> null;
        };
    }

    private DeferredResult<ResponseEntity<String>> withEffect(SandboxFault fault, SandboxPost post, ObjectNode body,
                                                              String pageId) {
        return switch (fault.type()) {
            case DELAY_THEN_CREATE -> {
                state.addPost(PROVIDER, post);
                yield Replies.after(state, fault.delayMillis(), () -> Replies.json(200, body, usageHeaders(pageId, 0)));
            }
            case CREATE_AFTER -> {
                Instant created = post.createdAt().plusMillis(fault.delayMillis());
                state.later(fault.delayMillis(), () -> state.addPost(PROVIDER, new SandboxPost(post.id(), post.target(),
                        post.text(), post.storedText(), post.link(), null, post.status(), created, null, post.url())));
                yield Replies.hold(state);
            }
            case ERROR_5XX_WITH_EFFECT -> {
                state.addPost(PROVIDER, post);
                yield Replies.now(state, serviceError());
            }
            default -> throw new IllegalStateException("fault " + fault.type() + " is handled before the effect");
        };
    }

    @GetMapping({"/sandbox/facebook/{version}/{pageId}/feed", "/sandbox/facebook/{version}/{pageId}/posts",
            "/sandbox/facebook/{version}/{pageId}/scheduled_posts"})
    public DeferredResult<ResponseEntity<String>> read(@PathVariable String pageId,
                                                      @RequestParam Map<String, String> params,
                                                      HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, pageId, SandboxFault.Operation.READ);
        if (fault.isPresent()) {
            SandboxFault f = fault.get();
            return switch (f.type()) {
                case RESET_AFTER_READ -> Replies.closeConnection(response);
                case CREATE_AFTER -> Replies.hold(state);
                case DELAY_THEN_CREATE -> Replies.after(state, f.delayMillis(), () -> page(pageId, params, request));
                case RATE_LIMIT -> Replies.now(state, rateLimited(f));
                case TOKEN_ERROR -> Replies.now(state, error(400, 190, 463, "Error validating access token: Session has expired."));
                default -> Replies.now(state, serviceError());
            };
        }
        String token = token(request, params);
        ResponseEntity<String> refusal = authorise(token, pageId, false);
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        return Replies.now(state, page(pageId, params, request));
    }

    private ResponseEntity<String> page(String pageId, Map<String, String> params, HttpServletRequest request) {
        String wanted = request.getRequestURI().endsWith("/scheduled_posts") ? "scheduled" : "published";
        List<SandboxPost> all = new ArrayList<>(state.posts(PROVIDER, pageId).stream()
                .filter(p -> wanted.equals(p.status()))
                .toList());
        Collections.reverse(all);
        long since = parseLong(params.get("since"), Long.MIN_VALUE);
        long until = parseLong(params.get("until"), Long.MAX_VALUE);
        List<SandboxPost> window = all.stream()
                .filter(p -> p.createdAt().getEpochSecond() >= since && p.createdAt().getEpochSecond() <= until)
                .toList();
        int limit = (int) Math.min(100, Math.max(1, parseLong(params.get("limit"), 25)));
        int offset = params.containsKey("after") ? decodeCursor(params.get("after")) : 0;
        List<SandboxPost> slice = window.subList(Math.min(offset, window.size()),
                Math.min(offset + limit, window.size()));
        String fields = params.getOrDefault("fields", "id,message,created_time");
        ObjectNode body = Json.object();
        ArrayNode data = body.putArray("data");
        for (SandboxPost post : slice) {
            ObjectNode item = data.addObject();
            item.put("id", post.id());
            if (fields.contains("message") && post.text() != null) {
                item.put("message", post.text());
            }
            if (fields.contains("created_time")) {
                item.put("created_time", CREATED_TIME.format(post.createdAt()));
            }
            if (fields.contains("permalink_url")) {
                item.put("permalink_url", post.url());
            }
            if (fields.contains("attachments") && post.link() != null) {
                item.putObject("attachments").putArray("data").addObject().put("unshimmed_url", post.link());
            }
        }
        if (!slice.isEmpty()) {
            ObjectNode paging = body.putObject("paging");
            ObjectNode cursors = paging.putObject("cursors");
            cursors.put("before", encodeCursor(offset));
            cursors.put("after", encodeCursor(offset + slice.size()));
            if (offset + slice.size() < window.size()) {
                Map<String, String> next = new LinkedHashMap<>(params);
                next.remove("after");
                next.remove("access_token");
                Map<String, String> ordered = new LinkedHashMap<>();
                // Facebook's paging links carry the access token they were called with.
                ordered.put("access_token", token(request, params));
                ordered.putAll(next);
                ordered.put("after", encodeCursor(offset + slice.size()));
                String base = ServletUriComponentsBuilder.fromRequest(request).replaceQuery(null).build().toUriString();
                paging.put("next", base + "?" + Forms.encode(ordered));
            }
        }
        return Replies.json(200, body, usageHeaders(pageId, 0));
    }

    private static String encodeCursor(int offset) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(("o:" + offset).getBytes(StandardCharsets.UTF_8));
    }

    private static int decodeCursor(String cursor) {
        try {
            String decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            return Integer.parseInt(decoded.substring(2));
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private static long parseLong(String value, long fallback) {
        try {
            return value == null ? fallback : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static String token(HttpServletRequest request, Map<String, String> params) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return header.substring(7).trim();
        }
        return params.get("access_token");
    }

    /** Null when the token may act on the Page, else Facebook's refusal. */
    private ResponseEntity<String> authorise(String token, String pageId, boolean write) {
        if (token == null || token.isBlank()) {
            return error(400, 2500, null, "An active access token must be used to query information about the current user.");
        }
        Optional<FacebookToken> known = state.facebookToken(token);
        if (known.isEmpty()) {
            return error(400, 190, null, "Invalid OAuth access token - Cannot parse access token");
        }
        if (known.get().kind() == FacebookTokenKind.USER) {
            return error(400, 190, null, "(#190) This method must be called with a Page Access Token");
        }
        if (!pageId.equals(known.get().pageId())) {
            return error(400, write ? 200 : 10, null, write
                    ? "(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission"
                    : "(#10) This endpoint requires the 'pages_read_engagement' permission or the 'Page Public Content Access' feature.");
        }
        return null;
    }

    private ResponseEntity<String> rateLimited(SandboxFault fault) {
        int code = fault.providerCode() == null ? 32 : fault.providerCode();
        // Only the Page-level limits report estimated_time_to_regain_access in the Page usage header.
        boolean pageLevel = code == 32 || code == 80001;
        long minutes = pageLevel ? (fault.retryAfterSeconds() + 59) / 60 : 0;
        HttpHeaders headers = usageHeaders(fault.target(), minutes);
        headers.set("x-app-usage", "{\"call_count\":100,\"total_time\":40,\"total_cputime\":38}");
        if (code == 4 && fault.retryAfterSeconds() > 0) {
            // The application-level limit has no Page usage header to say when access returns.
            headers.set("Retry-After", Long.toString(fault.retryAfterSeconds()));
        }
        String message = switch (code) {
            case 4 -> "(#4) Application request limit reached";
            case 17 -> "(#17) User request limit reached";
            case 613 -> "(#613) Calls to this api have exceeded the rate limit.";
            case 80001 -> "(#80001) There have been too many calls to this Page account. Wait a bit and try again.";
            default -> "(#32) Page request limit reached";
        };
        return error(code == 4 ? 403 : 400, code, null, message, headers);
    }

    private ResponseEntity<String> serviceError() {
        ObjectNode body = errorBody(2, null, "An unexpected error has occurred. Please retry your request later.");
        ((ObjectNode) body.get("error")).put("is_transient", true);
        return Replies.json(500, body, traceHeaders());
    }

    private ResponseEntity<String> error(int status, int code, Integer subcode, String message) {
        return error(status, code, subcode, message, traceHeaders());
    }

    private ResponseEntity<String> error(int status, int code, Integer subcode, String message, HttpHeaders headers) {
        return Replies.json(status, errorBody(code, subcode, message), headers);
    }

    private static ObjectNode errorBody(int code, Integer subcode, String message) {
        ObjectNode body = Json.object();
        ObjectNode error = body.putObject("error");
        error.put("message", message);
        error.put("type", "OAuthException");
        error.put("code", code);
        if (subcode != null) {
            error.put("error_subcode", subcode);
        }
        error.put("fbtrace_id", traceId());
        return body;
    }

    private static String traceId() {
        return "A" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    private static HttpHeaders traceHeaders() {
        HttpHeaders headers = new HttpHeaders();
        headers.set("x-fb-trace-id", traceId());
        headers.set("x-fb-rev", "1029384756");
        headers.set("facebook-api-version", "v25.0");
        return headers;
    }

    private HttpHeaders usageHeaders(String pageId, long minutesToRegain) {
        HttpHeaders headers = traceHeaders();
        headers.set("x-app-usage", "{\"call_count\":1,\"total_time\":1,\"total_cputime\":1}");
        headers.set("x-business-use-case-usage", "{\"" + pageId + "\":[{\"type\":\"pages\",\"call_count\":"
                + (minutesToRegain > 0 ? 100 : 1) + ",\"total_cputime\":1,\"total_time\":1,"
                + "\"estimated_time_to_regain_access\":" + minutesToRegain + "}]}");
        return headers;
    }
}
