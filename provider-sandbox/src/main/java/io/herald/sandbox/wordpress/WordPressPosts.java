package io.herald.sandbox.wordpress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Paging;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState.WordPressSite;
import io.herald.sandbox.SandboxState;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.async.DeferredResult;

/** A site's {@code /wp/v2/posts} route: create, list (with the plugin's meta filter) and OPTIONS. */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class WordPressPosts {

    private static final String PROVIDER = WordPressRest.PROVIDER;
    private static final String META_KEY = WordPressRest.META_KEY;

    private final SandboxState state;
    private final WordPressRest rest;

    WordPressPosts(WordPressRest rest) {
        this.state = rest.state();
        this.rest = rest;
    }

    DeferredResult<ResponseEntity<String>> create(WordPressSite site, boolean authenticated, String rawBody,
                                                  HttpServletRequest request, HttpServletResponse response) {
        return rest.write(site, SandboxFault.Operation.PUBLISH, authenticated, response, WordPressErrors::cannotCreate,
                fault -> create(site, rawBody, request, fault));
    }

    private DeferredResult<ResponseEntity<String>> create(WordPressSite site, String rawBody,
                                                         HttpServletRequest request, Optional<SandboxFault> fault) {
        JsonNode body = Json.parse(rawBody);
        if (!body.isObject()) {
            return Replies.now(state, WordPressErrors.invalidJson());
        }
        String status = body.path("status").asText("draft");
        if (!WordPressRest.STATUSES.contains(status)) {
            return Replies.now(state, WordPressRest.invalidStatus());
        }
        Instant now = Instant.now();
        Instant date = WordPressRest.date(body, now);
        if (date == null) {
            return Replies.now(state, WordPressErrors.invalidParam("date", "Invalid date."));
        }
        status = WordPressRest.scheduled(status, date, now);
        long author = body.path("author").asLong(WordPressRest.SITE_USER_ID);
        if (author <= 0) {
            return Replies.now(state, WordPressErrors.error(400, "rest_invalid_author", "Invalid author ID."));
        }
        String meta = site.plugin() ? Json.text(body.path("meta"), META_KEY) : null;
        Optional<Long> featuredMedia;
        try {
            featuredMedia = rest.featuredMedia(site, body);
        } catch (IllegalArgumentException notAnInteger) {
            return Replies.now(state, WordPressRest.invalidFeaturedMedia());
        }
        long id = state.nextId();
        if (author != WordPressRest.SITE_USER_ID) {
            rest.authoredBy(site, id, author);
        }
        String base = WordPressRest.siteBase(request, site.site());
        SandboxPost post = new SandboxPost(Long.toString(id), site.site(), body.path("content").asText(""),
                body.path("content").asText(""), null, body.path("title").asText(""), status, date, meta,
                base + "/?p=" + id);
        // the featured image is known before the answer is rendered
        featuredMedia.ifPresent(mediaId -> state.media().feature(PROVIDER, post.id(), mediaId));
        HttpHeaders headers = new HttpHeaders();
        headers.set("Location", base + "/?rest_route=/wp/v2/posts/" + post.id());
        ResponseEntity<String> created = Replies.json(201, rest.render(site, post, true), headers);
        return rest.faults().withEffect(fault, () -> state.posts().add(PROVIDER, post), () -> created);
    }

    DeferredResult<ResponseEntity<String>> list(WordPressSite site, boolean authenticated,
                                                HttpServletRequest request, HttpServletResponse response) {
        Optional<SandboxFault> fault = rest.faults().take(site.site(), SandboxFault.Operation.READ);
        if (fault.isEmpty()) {
            return Replies.now(state, listAnswer(site, authenticated, request));
        }
        // a delayed list shows the posts as they were when the request arrived
        ResponseEntity<String> answer = listAnswer(site, authenticated, request);
        return rest.faults().faulted(fault.get(), response, WordPressErrors::forbiddenContext, () -> answer);
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
            return WordPressErrors.forbiddenContext();
        }
        String filter = site.plugin() && authenticated ? request.getParameter(META_KEY) : null;
        List<SandboxPost> matching = state.posts().newestFirst(PROVIDER, site.site()).stream()
                .filter(post -> statuses.contains(post.status()))
                .filter(post -> filter == null || filter.equals(post.publicationMeta()))
                .toList();
        int perPage = parseInt(request.getParameter("per_page"), 10);
        int page = parseInt(request.getParameter("page"), 1);
        ArrayNode body = Json.MAPPER.createArrayNode();
        for (SandboxPost post : Paging.slice(matching, (page - 1) * perPage, perPage)) {
            body.add(rest.render(site, post, edit));
        }
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-WP-Total", Integer.toString(matching.size()));
        headers.set("X-WP-TotalPages", Integer.toString(Math.max(1, (matching.size() + perPage - 1) / perPage)));
        return Replies.json(200, body, headers);
    }

    private static int parseInt(String value, int fallback) {
        try {
            return value == null ? fallback : Math.max(1, Integer.parseInt(value));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    ResponseEntity<String> options(WordPressSite site) {
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
}
