package io.herald.sandbox.wordpress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState.WordPressSite;
import io.herald.sandbox.SandboxState;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.async.DeferredResult;

/** A site's {@code /wp/v2/posts/{id}} route: read, update ({@code POST|PUT|PATCH}) and delete. */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class WordPressPostEdits {

    private static final String PROVIDER = WordPressRest.PROVIDER;
    private static final String META_KEY = WordPressRest.META_KEY;

    private final SandboxState state;
    private final WordPressRest rest;

    WordPressPostEdits(WordPressRest rest) {
        this.state = rest.state();
        this.rest = rest;
    }

    /** {@code GET}, {@code POST|PUT|PATCH} (update) and {@code DELETE} (trash, or {@code force=true}) of one post. */
    DeferredResult<ResponseEntity<String>> onePost(WordPressSite site, boolean authenticated, String id,
                                                   String rawBody, HttpServletRequest request,
                                                   HttpServletResponse response) {
        String method = request.getMethod();
        if (method.equals("GET")) {
            boolean edit = "edit".equals(request.getParameter("context"));
            return rest.faults().read(site.site(), response, WordPressErrors::forbiddenContext, () -> {
                Optional<SandboxPost> post = state.posts().find(PROVIDER, site.site(), id);
                if (post.isEmpty()) {
                    return WordPressErrors.invalidId();
                }
                if (!authenticated && (edit || !post.get().status().equals("publish"))) {
                    return WordPressErrors.error(401, "rest_forbidden", "Sorry, you are not allowed to do that.");
                }
                return Replies.json(200, rest.render(site, post.get(), edit), new HttpHeaders());
            });
        }
        boolean delete = method.equals("DELETE");
        return rest.change(site, delete, authenticated, response, fault -> {
            Optional<SandboxPost> post = state.posts().find(PROVIDER, site.site(), id);
            if (post.isEmpty()) {
                return Replies.now(state, WordPressErrors.invalidId());
            }
            return delete ? deletePost(site, post.get(), fault, request)
                    : updatePost(site, post.get(), rawBody, fault);
        });
    }

    private DeferredResult<ResponseEntity<String>> deletePost(WordPressSite site, SandboxPost post,
                                                             Optional<SandboxFault> fault, HttpServletRequest request) {
        if (WordPressRest.forced(request)) {
            ObjectNode previous = rest.render(site, post, true);
            return rest.faults().withEffect(fault,
                    () -> state.posts().remove(PROVIDER, site.site(), post.id(), "force", Instant.now()),
                    () -> deleted(previous));
        }
        if (post.status().equals("trash")) {
            return Replies.now(state, WordPressErrors.error(410, "rest_already_trashed", "The post has already been deleted."));
        }
        return rest.faults().withEffect(fault, () -> {
            state.posts().recordDeletion(PROVIDER, post, "trash", Instant.now());
            state.posts().update(PROVIDER, site.site(), post.id(), current -> current.withStatus("trash"));
        }, () -> Replies.json(200, rest.render(site, state.posts().find(PROVIDER, site.site(), post.id())
                .orElse(post.withStatus("trash")), true), new HttpHeaders()));
    }

    /** WordPress's answer to a delete for good: {@code deleted} and the thing as it was. */
    static ResponseEntity<String> deleted(ObjectNode previous) {
        ObjectNode body = Json.object().put("deleted", true);
        body.set("previous", previous);
        return Replies.json(200, body, new HttpHeaders());
    }

    private DeferredResult<ResponseEntity<String>> updatePost(WordPressSite site, SandboxPost post, String rawBody,
                                                             Optional<SandboxFault> fault) {
        JsonNode body = rawBody == null ? Json.object() : Json.parse(rawBody);
        if (!body.isObject()) {
            return Replies.now(state, WordPressErrors.invalidJson());
        }
        String status = body.hasNonNull("status") ? body.path("status").asText() : post.status();
        if (body.hasNonNull("status") && !WordPressRest.STATUSES.contains(status)) {
            return Replies.now(state, WordPressRest.invalidStatus());
        }
        Instant date = WordPressRest.date(body, post.createdAt());
        if (date == null) {
            return Replies.now(state, WordPressErrors.invalidParam("date", "Invalid date."));
        }
        Optional<Long> featuredMedia;
        try {
            featuredMedia = rest.featuredMedia(site, body);
        } catch (IllegalArgumentException notAnInteger) {
            return Replies.now(state, WordPressRest.invalidFeaturedMedia());
        }
        status = WordPressRest.scheduled(status, date, Instant.now());
        String content = body.has("content") ? text(body.path("content")) : post.text();
        String title = body.has("title") ? text(body.path("title")) : post.title();
        String meta = site.plugin() && body.path("meta").has(META_KEY) ? Json.text(body.path("meta"), META_KEY)
                : post.publicationMeta();
        SandboxPost changed = new SandboxPost(post.id(), post.target(), content, content, post.link(), title, status,
                date, meta, post.url());
        return rest.faults().withEffect(fault, () -> {
            state.posts().update(PROVIDER, site.site(), post.id(), current -> changed);
            featuredMedia.ifPresent(mediaId -> state.media().feature(PROVIDER, post.id(), mediaId));
            state.posts().recordEdit(PROVIDER, changed, Instant.now());
        }, () -> Replies.json(200, rest.render(site, changed, true), new HttpHeaders()));
    }

    /** A title or content field: plain text, or an object with {@code raw}. */
    private static String text(JsonNode field) {
        return field.isObject() ? field.path("raw").asText("") : field.asText("");
    }
}
