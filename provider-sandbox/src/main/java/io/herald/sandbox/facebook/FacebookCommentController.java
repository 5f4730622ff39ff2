package io.herald.sandbox.facebook;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxComment;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxState;
import io.herald.sandbox.facebook.FacebookGraph.GraphObject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
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

/** Comments and replies, {@code /sandbox/facebook/{version}/{object-id}/comments}, written as the Page. */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class FacebookCommentController {

    private static final String PROVIDER = FacebookGraph.PROVIDER;

    private final SandboxState state;
    private final FacebookGraph graph;

    FacebookCommentController(FacebookGraph graph) {
        this.state = graph.state();
        this.graph = graph;
    }

    /** {@code POST /{post-id}/comments} (a comment) or {@code POST /{comment-id}/comments} (a reply), as the Page. */
    @PostMapping("/sandbox/facebook/{version}/{objectId}/comments")
    public DeferredResult<ResponseEntity<String>> comment(@PathVariable String objectId,
                                                         @RequestParam Map<String, String> params,
                                                         HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        GraphObject object = graph.find(objectId);
        return graph.write(object.pageId(), SandboxFault.Operation.COMMENT, params, request, response,
                fault -> comment(object, objectId, params, fault));
    }

    private DeferredResult<ResponseEntity<String>> comment(GraphObject object, String objectId,
                                                          Map<String, String> params, Optional<SandboxFault> fault) {
        String postId = object.post() != null ? object.post().id()
                : object.comment() != null ? object.comment().postId() : null;
        if (postId == null) {
            return Replies.now(state, FacebookErrors.doesNotExist("post", objectId));
        }
        String message = params.get("message");
        if (message == null || message.isBlank()) {
            return Replies.now(state, FacebookErrors.error(400, 100, null, "(#100) Missing message or attachment"));
        }
        String id = postId.substring(postId.indexOf('_') + 1) + "_" + state.nextId();
        SandboxComment comment = new SandboxComment(id, null, postId,
                object.comment() != null ? object.comment().id() : null, object.pageId(), message, Instant.now());
        return graph.faults().withEffect(fault, () -> state.comments().add(PROVIDER, comment),
                () -> FacebookErrors.ok(Json.object().put("id", id), object.pageId()));
    }

    /** {@code GET /{post-id}/comments}: the top-level comments; {@code GET /{comment-id}/comments}: its replies. */
    @GetMapping("/sandbox/facebook/{version}/{objectId}/comments")
    public DeferredResult<ResponseEntity<String>> comments(@PathVariable String objectId,
                                                          @RequestParam Map<String, String> params,
                                                          HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        String pageId = graph.find(objectId).pageId();
        String token = FacebookGraph.token(request, params);
        String base = ServletUriComponentsBuilder.fromRequest(request).replaceQuery(null).build().toUriString();
        return graph.faults().read(pageId, response, FacebookErrors::expiredOnRead, () -> {
            ResponseEntity<String> refusal = graph.authorise(token, pageId, false);
            return refusal != null ? refusal : commentPage(graph.find(objectId), params, token, base);
        });
    }

    private ResponseEntity<String> commentPage(GraphObject object, Map<String, String> params, String token,
                                               String base) {
        List<SandboxComment> listed;
        if (object.post() != null) {
            listed = state.comments().of(PROVIDER, object.post().id()).stream()
                    .filter(c -> c.parentId() == null).toList();
        } else if (object.comment() != null) {
            listed = state.comments().of(PROVIDER, object.comment().postId()).stream()
                    .filter(c -> object.comment().id().equals(c.parentId())).toList();
        } else {
            return FacebookErrors.doesNotExist("get", object.pageId());
        }
        FacebookPaging.Page<SandboxComment> page = FacebookPaging.of(listed, params);
        ObjectNode body = Json.object();
        ArrayNode data = body.putArray("data");
        page.items().forEach(c -> data.add(FacebookGraph.commentNode(c)));
        FacebookPaging.link(body, page, base, after -> {
            Map<String, String> next = new LinkedHashMap<>();
            next.put("access_token", token);
            next.put("limit", Integer.toString(page.limit()));
            next.put("after", after);
            return next;
        });
        return FacebookErrors.ok(body, object.pageId());
    }
}
