package io.herald.adapters.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Json;
import io.herald.adapters.sandbox.SandboxState.WordPressSite;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * A WordPress site's REST API under {@code /sandbox/wordpress/{site}}, reachable both as
 * {@code /wp-json/wp/v2/…} and as {@code /?rest_route=/wp/v2/…}. With the "plugin" behaviour the
 * site keeps {@code herald_publication_id} in meta, filters by it and lists it in OPTIONS; without
 * it, meta is PHP's empty array {@code []} and the filter is ignored, as on a stock site. Each
 * site has one user (id 1, the application password's owner); a post created with another
 * {@code author} id is listed with that author, as when an editor posts on someone's behalf.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class WordPressSandboxController {

    static final String PROVIDER = "wordpress";
    static final String META_KEY = "herald_publication_id";
    private static final Set<String> STATUSES = Set.of("publish", "future", "draft", "pending", "private");
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    /** The user id of each site's one user (its application password's owner), as WordPress numbers its first user. */
    static final long SITE_USER_ID = 1;

    private final SandboxState state;
    /**
     * Post author by site and post id, for posts whose author is not the site's user: an editor may
     * create a post as another user ({@code "author"} on create), as on a real site.
     */
    private final Map<String, Long> otherAuthors = new ConcurrentHashMap<>();

    public WordPressSandboxController(SandboxState state) {
        this.state = state;
    }

    @RequestMapping(value = {"/sandbox/wordpress/{site}", "/sandbox/wordpress/{site}/",
            "/sandbox/wordpress/{site}/wp-json/wp/v2/**"},
            method = {RequestMethod.GET, RequestMethod.POST, RequestMethod.OPTIONS})
    public DeferredResult<ResponseEntity<String>> route(@PathVariable String site,
                                                       @RequestBody(required = false) String rawBody,
                                                       HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        String route = request.getParameter("rest_route");
        if (route == null) {
            String path = request.getRequestURI();
            int at = path.indexOf("/wp-json");
            route = at < 0 ? "/" : path.substring(at + "/wp-json".length());
        }
        Optional<WordPressSite> known = state.wordPressSite(site);
        if (known.isEmpty()) {
            return Replies.now(state, error(404, "rest_no_route", "No route was found matching the URL and request method."));
        }
        String method = request.getMethod();
        boolean authenticated = authenticated(known.get(), request.getHeader("Authorization"));
        if (route.equals("/wp/v2/users/me") && method.equals("GET")) {
            return Replies.now(state, authenticated
                    ? Replies.json(200, Json.object().put("id", SITE_USER_ID).put("name", known.get().username())
                    .put("slug", known.get().username()), new HttpHeaders())
                    : error(401, "rest_not_logged_in", "You are not currently logged in."));
        }
        if (!route.equals("/wp/v2/posts")) {
            return Replies.now(state, error(404, "rest_no_route", "No route was found matching the URL and request method."));
        }
        return switch (method) {
            case "OPTIONS" -> Replies.now(state, options(known.get()));
            case "POST" -> create(known.get(), authenticated, rawBody, request, response);
            default -> list(known.get(), authenticated, request, response);
        };
    }

    private DeferredResult<ResponseEntity<String>> create(WordPressSite site, boolean authenticated, String rawBody,
                                                         HttpServletRequest request, HttpServletResponse response) {
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, site.site(), SandboxFault.Operation.PUBLISH);
        if (fault.isPresent()) {
            SandboxFault f = fault.get();
            switch (f.type()) {
                case RESET_AFTER_READ:
                    return Replies.closeConnection(response);
                case ERROR_5XX_NO_EFFECT:
                    return Replies.now(state, criticalError());
                case RATE_LIMIT:
                    return Replies.now(state, rateLimited(f));
                case TOKEN_ERROR:
                    return Replies.now(state, cannotCreate());
                default:
                    break;
            }
        }
        if (!authenticated) {
            return Replies.now(state, cannotCreate());
        }
        JsonNode body = Json.parse(rawBody);
        if (!body.isObject()) {
            return Replies.now(state, error(400, "rest_invalid_json", "Invalid JSON body passed."));
        }
        String status = body.path("status").asText("draft");
        if (!STATUSES.contains(status)) {
            return Replies.now(state, invalidParam("status", "status is not one of publish, future, draft, pending, private."));
        }
        Instant now = Instant.now();
        Instant date = now;
        if (body.hasNonNull("date")) {
            try {
                date = parseDate(body.path("date").asText());
            } catch (DateTimeParseException e) {
                return Replies.now(state, invalidParam("date", "Invalid date."));
            }
        }
        if (status.equals("future") && !date.isAfter(now)) {
            status = "publish";
        }
        if (status.equals("publish") && date.isAfter(now)) {
            status = "future";
        }
        long author = body.path("author").asLong(SITE_USER_ID);
        if (author <= 0) {
            return Replies.now(state, error(400, "rest_invalid_author", "Invalid author ID."));
        }
        String meta = site.plugin() ? Json.text(body.path("meta"), META_KEY) : null;
        long id = state.nextId();
        if (author != SITE_USER_ID) {
            otherAuthors.put(site.site() + "/" + id, author);
        }
        SandboxPost post = new SandboxPost(Long.toString(id), site.site(), body.path("content").asText(""),
                body.path("content").asText(""), null, body.path("title").asText(""), status, date, meta,
                siteBase(request, site.site()) + "/?p=" + id);
        ResponseEntity<String> created = createdAnswer(site, post, request);
        if (fault.isEmpty()) {
            state.addPost(PROVIDER, post);
            return Replies.now(state, created);
        }
        SandboxFault f = fault.get();
        return switch (f.type()) {
            case DELAY_THEN_CREATE -> {
                state.addPost(PROVIDER, post);
                yield Replies.after(state, f.delayMillis(), () -> created);
            }
            case CREATE_AFTER -> {
                state.later(f.delayMillis(), () -> state.addPost(PROVIDER, post));
                yield Replies.hold(state);
            }
            case ERROR_5XX_WITH_EFFECT -> {
                state.addPost(PROVIDER, post);
                yield Replies.now(state, criticalError());
            }
            default -> throw new IllegalStateException("unexpected fault " + f.type());
        };
    }

    private ResponseEntity<String> createdAnswer(WordPressSite site, SandboxPost post, HttpServletRequest request) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("Location", siteBase(request, site.site()) + "/?rest_route=/wp/v2/posts/" + post.id());
        return Replies.json(201, render(site, post, true), headers);
    }

    private DeferredResult<ResponseEntity<String>> list(WordPressSite site, boolean authenticated,
                                                       HttpServletRequest request, HttpServletResponse response) {
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, site.site(), SandboxFault.Operation.READ);
        if (fault.isPresent()) {
            SandboxFault f = fault.get();
            return switch (f.type()) {
                case RESET_AFTER_READ -> Replies.closeConnection(response);
                case CREATE_AFTER -> Replies.hold(state);
                case RATE_LIMIT -> Replies.now(state, rateLimited(f));
                case TOKEN_ERROR -> Replies.now(state, error(401, "rest_forbidden_context",
                        "Sorry, you are not allowed to edit posts in this post type."));
                case DELAY_THEN_CREATE -> {
                    ResponseEntity<String> answer = listAnswer(site, authenticated, request);
                    yield Replies.after(state, f.delayMillis(), () -> answer);
                }
                default -> Replies.now(state, criticalError());
            };
        }
        return Replies.now(state, listAnswer(site, authenticated, request));
    }

    private ResponseEntity<String> listAnswer(WordPressSite site, boolean authenticated, HttpServletRequest request) {
        List<String> statuses = Arrays.asList(Optional.ofNullable(request.getParameter("status")).orElse("publish")
                .split(","));
        boolean edit = "edit".equals(request.getParameter("context"));
        if (!authenticated && statuses.stream().anyMatch(s -> !s.equals("publish"))) {
            ObjectNode body = Json.object().put("code", "rest_invalid_param").put("message", "Invalid parameter(s): status");
            ObjectNode data = body.putObject("data").put("status", 400);
            data.putObject("params").put("status", "Status is forbidden.");
            data.putObject("details").putObject("status").put("code", "rest_forbidden_status")
                    .put("message", "Status is forbidden.").putObject("data").put("status", 401);
            return Replies.json(400, body, new HttpHeaders());
        }
        if (!authenticated && edit) {
            return error(401, "rest_forbidden_context", "Sorry, you are not allowed to edit posts in this post type.");
        }
        String filter = site.plugin() && authenticated ? request.getParameter(META_KEY) : null;
        List<SandboxPost> matching = new ArrayList<>();
        List<SandboxPost> all = new ArrayList<>(state.posts(PROVIDER, site.site()));
        java.util.Collections.reverse(all);
        for (SandboxPost post : all) {
            if (!statuses.contains(post.status())) {
                continue;
            }
            if (filter != null && !filter.equals(post.publicationMeta())) {
                continue;
            }
            matching.add(post);
        }
        int perPage = parseInt(request.getParameter("per_page"), 10);
        int page = parseInt(request.getParameter("page"), 1);
        int from = Math.min((page - 1) * perPage, matching.size());
        ArrayNode body = Json.MAPPER.createArrayNode();
        for (SandboxPost post : matching.subList(from, Math.min(from + perPage, matching.size()))) {
            body.add(render(site, post, edit));
        }
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-WP-Total", Integer.toString(matching.size()));
        headers.set("X-WP-TotalPages", Integer.toString(Math.max(1, (matching.size() + perPage - 1) / perPage)));
        return Replies.json(200, body, headers);
    }

    private ObjectNode render(WordPressSite site, SandboxPost post, boolean edit) {
        ObjectNode node = Json.object();
        node.put("id", Long.parseLong(post.id()));
        String local = LOCAL.format(post.createdAt().atOffset(ZoneOffset.UTC));
        node.put("date", local);
        node.put("date_gmt", local);
        node.put("slug", "post-" + post.id());
        node.put("status", post.status());
        node.put("type", "post");
        node.put("link", post.url());
        node.put("author", otherAuthors.getOrDefault(site.site() + "/" + post.id(), SITE_USER_ID));
        ObjectNode title = node.putObject("title");
        ObjectNode content = node.putObject("content");
        if (edit) {
            title.put("raw", post.title());
            content.put("raw", post.text());
        }
        title.put("rendered", post.title());
        content.put("rendered", "<p>" + post.text() + "</p>\n");
        content.put("protected", false);
        if (site.plugin()) {
            node.putObject("meta").put(META_KEY, post.publicationMeta() == null ? "" : post.publicationMeta());
        } else {
            // PHP encodes the empty meta array as [], not {}.
            node.putArray("meta");
        }
        return node;
    }

    private ResponseEntity<String> options(WordPressSite site) {
        ObjectNode body = Json.object();
        body.put("namespace", "wp/v2");
        body.putArray("methods").add("GET").add("POST");
        ArrayNode endpoints = body.putArray("endpoints");
        ObjectNode get = endpoints.addObject();
        get.putArray("methods").add("GET");
        ObjectNode getArgs = get.putObject("args");
        getArgs.putObject("context").put("type", "string").put("default", "view");
        getArgs.putObject("page").put("type", "integer").put("default", 1);
        getArgs.putObject("per_page").put("type", "integer").put("default", 10);
        getArgs.putObject("status").put("type", "array").put("default", "publish");
        if (site.plugin()) {
            getArgs.putObject(META_KEY).put("description", "Limit result set to posts Herald published with this id.")
                    .put("type", "string").put("required", false);
        }
        ObjectNode post = endpoints.addObject();
        post.putArray("methods").add("POST");
        ObjectNode postArgs = post.putObject("args");
        postArgs.putObject("title").put("type", "object");
        postArgs.putObject("content").put("type", "object");
        postArgs.putObject("status").put("type", "string");
        postArgs.putObject("date").put("type", "string");
        postArgs.putObject("meta").put("type", "object");
        ObjectNode schema = body.putObject("schema");
        schema.put("$schema", "http://json-schema.org/draft-04/schema#");
        schema.put("title", "post");
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("id").put("type", "integer");
        properties.putObject("status").put("type", "string");
        ObjectNode meta = properties.putObject("meta");
        meta.put("type", "object");
        ObjectNode metaProperties = meta.putObject("properties");
        if (site.plugin()) {
            metaProperties.putObject(META_KEY).put("type", "string").put("default", "");
        }
        HttpHeaders headers = new HttpHeaders();
        headers.set("Allow", "GET, POST");
        return Replies.json(200, body, headers);
    }

    static boolean authenticated(WordPressSite site, String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return false;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return false;
        }
        String user = decoded.substring(0, colon);
        String password = decoded.substring(colon + 1).replace(" ", "");
        return user.equals(site.username()) && password.equals(site.applicationPassword().replace(" ", ""));
    }

    static Instant parseDate(String value) {
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            // A date without offset is in the site's time zone; the sandbox's sites run on UTC.
            return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
        }
    }

    private static int parseInt(String value, int fallback) {
        try {
            return value == null ? fallback : Math.max(1, Integer.parseInt(value));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static String siteBase(HttpServletRequest request, String site) {
        return ServletUriComponentsBuilder.fromContextPath(request).path("/sandbox/wordpress/" + site).build().toUriString();
    }

    private static ResponseEntity<String> cannotCreate() {
        return error(401, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user.");
    }

    private static ResponseEntity<String> invalidParam(String param, String message) {
        ObjectNode body = Json.object().put("code", "rest_invalid_param").put("message", "Invalid parameter(s): " + param);
        body.putObject("data").put("status", 400).putObject("params").put(param, message);
        return Replies.json(400, body, new HttpHeaders());
    }

    private static ResponseEntity<String> rateLimited(SandboxFault fault) {
        HttpHeaders headers = new HttpHeaders();
        if (fault.retryAfterSeconds() > 0) {
            headers.set("Retry-After", Long.toString(fault.retryAfterSeconds()));
        }
        return Replies.json(429, Json.object().put("code", "too_many_requests")
                .put("message", "Too many requests.").set("data", Json.object().put("status", 429)), headers);
    }

    private static ResponseEntity<String> criticalError() {
        ObjectNode body = Json.object().put("code", "internal_server_error")
                .put("message", "<p>There has been a critical error on this website.</p>");
        body.putObject("data").put("status", 500);
        body.putArray("additional_errors");
        return Replies.json(500, body, new HttpHeaders());
    }

    private static ResponseEntity<String> error(int status, String code, String message) {
        ObjectNode body = Json.object().put("code", code).put("message", message);
        body.putObject("data").put("status", status);
        return Replies.json(status, body, new HttpHeaders());
    }
}
