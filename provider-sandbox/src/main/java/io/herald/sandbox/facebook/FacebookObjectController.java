package io.herald.sandbox.facebook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState;
import io.herald.sandbox.facebook.FacebookGraph.GraphObject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/** One Graph object by id, {@code /sandbox/facebook/{version}/{object-id}}: read, edit and delete. */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class FacebookObjectController {

    private static final String PROVIDER = FacebookGraph.PROVIDER;

    private final SandboxState state;
    private final FacebookGraph graph;

    FacebookObjectController(FacebookGraph graph) {
        this.state = graph.state();
        this.graph = graph;
    }

    /** {@code GET /{object-id}}: a post (with {@code fields}, attachments included), a photo or a comment. */
    @GetMapping("/sandbox/facebook/{version}/{objectId}")
    public DeferredResult<ResponseEntity<String>> object(@PathVariable String objectId,
                                                        @RequestParam Map<String, String> params,
                                                        HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        String pageId = graph.find(objectId).pageId();
        String token = FacebookGraph.token(request, params);
        return graph.faults().read(pageId, response, FacebookErrors::expiredOnRead, () -> {
            ResponseEntity<String> refusal = graph.authorise(token, pageId, false);
            if (refusal != null) {
                return refusal;
            }
            GraphObject object = graph.find(objectId);
            if (object.post() != null) {
                return FacebookErrors.ok(graph.render(object.post(),
                        params.getOrDefault("fields", "id,message,created_time"), true), pageId);
            }
            if (object.photo() != null) {
                ObjectNode body = FacebookGraph.photoNode(object.photo());
                body.put("created_time", FacebookGraph.CREATED_TIME.format(object.photo().createdAt()));
                return FacebookErrors.ok(body, pageId);
            }
            if (object.comment() != null) {
                return FacebookErrors.ok(FacebookGraph.commentNode(object.comment()), pageId);
            }
            return FacebookErrors.doesNotExist("get", objectId);
        });
    }

    /** {@code POST /{post-id}}: an edit ({@code message}, {@code is_published=true}), answered {@code {"success":true}}. */
    @PostMapping("/sandbox/facebook/{version}/{objectId}")
    public DeferredResult<ResponseEntity<String>> edit(@PathVariable String objectId,
                                                      @RequestParam Map<String, String> params,
                                                      HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        GraphObject object = graph.find(objectId);
        return graph.write(object.pageId(), SandboxFault.Operation.EDIT, params, request, response,
                fault -> edit(object, objectId, params, fault));
    }

    private DeferredResult<ResponseEntity<String>> edit(GraphObject object, String objectId,
                                                       Map<String, String> params, Optional<SandboxFault> fault) {
        if (object.post() == null) {
            return Replies.now(state, FacebookErrors.doesNotExist("post", objectId));
        }
        String message = params.get("message");
        boolean publish = "true".equals(params.get("is_published"));
        if (message == null && !publish) {
            return Replies.now(state, FacebookErrors.error(400, 100, null,
                    "(#100) Parameters do not match any fields that can be updated"));
        }
        SandboxPost post = object.post();
        return graph.faults().withEffect(fault, () -> state.posts().update(PROVIDER, post.target(),
                        post.id(), current -> new SandboxPost(current.id(), current.target(),
                                message != null ? message : current.text(), message != null ? message : current.storedText(),
                                current.link(), current.title(), publish ? "published" : current.status(),
                                current.createdAt(), current.publicationMeta(), current.url()))
                        .ifPresent(changed -> state.posts().recordEdit(PROVIDER, changed, Instant.now())),
                () -> success(object.pageId()));
    }

    /**
     * {@code DELETE /{object-id}}: a post (its photos go with it), a comment, or a photo no post
     * uses. Afterwards every call on the id answers 100/33, as Facebook does.
     */
    @DeleteMapping("/sandbox/facebook/{version}/{objectId}")
    public DeferredResult<ResponseEntity<String>> delete(@PathVariable String objectId,
                                                        @RequestParam Map<String, String> params,
                                                        HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        GraphObject object = graph.find(objectId);
        return graph.write(object.pageId(), SandboxFault.Operation.DELETE, params, request, response,
                fault -> delete(object, objectId, fault));
    }

    private DeferredResult<ResponseEntity<String>> delete(GraphObject object, String objectId,
                                                         Optional<SandboxFault> fault) {
        Runnable effect;
        if (object.post() != null) {
            SandboxPost post = object.post();
            effect = () -> state.posts().remove(PROVIDER, post.target(), post.id(), "deleted", Instant.now())
                    .ifPresent(removed -> state.media().attachments(PROVIDER, removed.id()).forEach(image ->
                            state.media().update(PROVIDER, image.mediaId(), m -> m.withStatus(FacebookGraph.DELETED))));
        } else if (object.comment() != null) {
            effect = () -> state.comments().remove(PROVIDER, object.comment());
        } else if (object.photo() != null && object.photo().postId() == null) {
            effect = () -> state.media().update(PROVIDER, object.photo().id(), m -> m.withStatus(FacebookGraph.DELETED));
        } else {
            // unknown, deleted, or a photo inside a post
            return Replies.now(state, FacebookErrors.doesNotExist("delete", objectId));
        }
        return graph.faults().withEffect(fault, effect, () -> success(object.pageId()));
    }

    private static ResponseEntity<String> success(String pageId) {
        return FacebookErrors.ok(Json.object().put("success", true), pageId);
    }
}
