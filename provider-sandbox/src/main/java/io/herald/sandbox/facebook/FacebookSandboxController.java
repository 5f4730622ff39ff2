package io.herald.sandbox.facebook;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxMedia;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState.Attachment;
import io.herald.sandbox.SandboxState;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
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

    static final String PROVIDER = FacebookGraph.PROVIDER;

    private final SandboxState state;
    private final FacebookGraph graph;

    FacebookSandboxController(FacebookGraph graph) {
        this.state = graph.state();
        this.graph = graph;
    }

    @PostMapping("/sandbox/facebook/{version}/{pageId}/feed")
    public DeferredResult<ResponseEntity<String>> create(@PathVariable String pageId,
                                                        @RequestParam Map<String, String> params,
                                                        HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        FacebookBudgets.Use use = graph.budgets().use(pageId, Instant.now());
        if (use != null && use.refused()) {
            return Replies.now(state, FacebookErrors.budgetSpent(pageId, use));
        }
        return graph.write(pageId, SandboxFault.Operation.PUBLISH, params, request, response,
                fault -> create(pageId, params, fault, use));
    }

    private DeferredResult<ResponseEntity<String>> create(String pageId, Map<String, String> params,
                                                         Optional<SandboxFault> fault, FacebookBudgets.Use use) {
        String message = params.get("message");
        String link = params.get("link");
        List<String> mediaIds = attachedMedia(params);
        if ((message == null || message.isBlank()) && (link == null || link.isBlank()) && mediaIds.isEmpty()) {
            return Replies.now(state, FacebookErrors.error(400, 197, null,
                    "(#197) The post is empty: give it a message or a link."));
        }
        boolean published = !"false".equals(params.get("published"));
        Instant now = Instant.now();
        if (!published && params.containsKey("scheduled_publish_time")) {
            long at = FacebookPaging.parseLong(params.get("scheduled_publish_time"), -1);
            if (at < now.plusSeconds(600).getEpochSecond() || at > now.plusSeconds(75L * 24 * 3600).getEpochSecond()) {
                return Replies.now(state, FacebookErrors.error(400, 100, null,
                        "(#100) The specified scheduled publish time is invalid."));
            }
        }
        List<Attachment> images = new ArrayList<>();
        for (int i = 0; i < mediaIds.size(); i++) {
            Optional<SandboxMedia> photo = graph.livePhoto(mediaIds.get(i)).filter(m -> m.target().equals(pageId));
            if (photo.isEmpty()) {
                return Replies.now(state, FacebookErrors.error(400, 100, null,
                        "(#100) param attached_media[" + i + "] has an invalid media_fbid"));
            }
            if (photo.get().postId() != null || mediaIds.indexOf(mediaIds.get(i)) != i) {
                return Replies.now(state, FacebookErrors.error(400, 100, 1366051, "These photos were already posted."));
            }
            images.add(new Attachment(photo.get().id(), photo.get().altText()));
        }
        Optional<SandboxPost> last = state.posts().last(PROVIDER, pageId);
        if (message != null && last.isPresent() && message.equals(last.get().text())) {
            return Replies.now(state, FacebookErrors.error(400, 506, null, "(#506) Duplicate status message"));
        }
        String id = FacebookGraph.postId(pageId, state.nextId());
        SandboxPost post = new SandboxPost(id, pageId, message, message, link, null,
                published ? "published" : "scheduled", now, null, FacebookGraph.postUrl(id));
        ObjectNode body = Json.object().put("id", id);
        return graph.faults().withLateEffect(fault, lateBy -> graph.store(post.createdLater(lateBy), images),
                () -> FacebookErrors.ok(body, pageId, use == null ? 1 : use.percent()));
    }

    /** {@code attached_media[0]={"media_fbid":…}, attached_media[1]=…}, or one JSON array in {@code attached_media}. */
    private static List<String> attachedMedia(Map<String, String> params) {
        List<String> ids = new ArrayList<>();
        String array = params.get("attached_media");
        if (array != null) {
            Json.parse(array).forEach(item -> ids.add(item.path("media_fbid").asText("")));
        }
        for (int i = 0; params.containsKey("attached_media[" + i + "]"); i++) {
            ids.add(Json.parse(params.get("attached_media[" + i + "]")).path("media_fbid").asText(""));
        }
        return ids;
    }

    @GetMapping({"/sandbox/facebook/{version}/{pageId}/feed", "/sandbox/facebook/{version}/{pageId}/posts",
            "/sandbox/facebook/{version}/{pageId}/scheduled_posts"})
    public DeferredResult<ResponseEntity<String>> read(@PathVariable String pageId,
                                                      @RequestParam Map<String, String> params,
                                                      HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        Optional<SandboxFault> fault = graph.faults().take(pageId, SandboxFault.Operation.READ);
        if (fault.isPresent()) {
            // a faulted read answers without the token check
            return graph.faults().faulted(fault.get(), response, FacebookErrors::expiredOnRead,
                    () -> page(pageId, params, request));
        }
        ResponseEntity<String> refusal = graph.authorise(FacebookGraph.token(request, params), pageId, false);
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        return Replies.now(state, page(pageId, params, request));
    }

    private ResponseEntity<String> page(String pageId, Map<String, String> params, HttpServletRequest request) {
        String wanted = request.getRequestURI().endsWith("/scheduled_posts") ? "scheduled" : "published";
        long since = FacebookPaging.parseLong(params.get("since"), Long.MIN_VALUE);
        long until = FacebookPaging.parseLong(params.get("until"), Long.MAX_VALUE);
        List<SandboxPost> window = state.posts().newestFirst(PROVIDER, pageId).stream()
                .filter(p -> wanted.equals(p.status()))
                .filter(p -> p.createdAt().getEpochSecond() >= since && p.createdAt().getEpochSecond() <= until)
                .toList();
        FacebookPaging.Page<SandboxPost> page = FacebookPaging.of(window, params);
        String fields = params.getOrDefault("fields", "id,message,created_time");
        ObjectNode body = Json.object();
        ArrayNode data = body.putArray("data");
        page.items().forEach(post -> data.add(graph.render(post, fields, false)));
        String base = ServletUriComponentsBuilder.fromRequest(request).replaceQuery(null).build().toUriString();
        FacebookPaging.link(body, page, base, after -> {
            Map<String, String> next = new LinkedHashMap<>(params);
            next.remove("after");
            next.remove("access_token");
            Map<String, String> ordered = new LinkedHashMap<>();
            // Facebook's paging links carry the access token they were called with.
            ordered.put("access_token", FacebookGraph.token(request, params));
            ordered.putAll(next);
            ordered.put("after", after);
            return ordered;
        });
        return FacebookErrors.ok(body, pageId);
    }
}
