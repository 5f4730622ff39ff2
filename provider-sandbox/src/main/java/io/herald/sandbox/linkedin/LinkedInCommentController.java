package io.herald.sandbox.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Paging;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxComment;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState.LinkedInToken;
import io.herald.sandbox.SandboxState;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/** LinkedIn's comments on a post, {@code /sandbox/linkedin/rest/socialActions/{urn}/comments}. */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class LinkedInCommentController {

    private static final String PROVIDER = LinkedInRest.PROVIDER;

    private final SandboxState state;
    private final LinkedInRest rest;

    LinkedInCommentController(LinkedInRest rest) {
        this.state = rest.state();
        this.rest = rest;
    }

    /** {@code POST /rest/socialActions/{urn}/comments}: a comment by the actor on the post → 201 with the comment. */
    @PostMapping("/sandbox/linkedin/rest/socialActions/{urn}/comments")
    public DeferredResult<ResponseEntity<String>> comment(@PathVariable String urn,
                                                         @RequestBody(required = false) String rawBody,
                                                         HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        Optional<SandboxPost> post = state.posts().find(PROVIDER, urn);
        return rest.faults().write(post.map(SandboxPost::target).orElse(null), SandboxFault.Operation.COMMENT,
                response, LinkedInErrors::invalidToken, fault -> comment(urn, post, rawBody, request, fault));
    }

    private DeferredResult<ResponseEntity<String>> comment(String urn, Optional<SandboxPost> post, String rawBody,
                                                          HttpServletRequest request, Optional<SandboxFault> fault) {
        JsonNode body = Json.parse(rawBody);
        String actor = Json.text(body, "actor");
        ResponseEntity<String> refusal = rest.writer(request, actor, "partnerApiSocialActions.CREATE.20261101");
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        if (post.isEmpty()) {
            return Replies.now(state, LinkedInErrors.notFound());
        }
        String text = Json.text(body.path("message"), "text");
        if (text == null || text.isBlank()) {
            return Replies.now(state, LinkedInErrors.error(422, 0, null, "ERROR :: /message/text :: field is required"));
        }
        String id = Long.toString(7_200_000_000_000_000_000L + state.nextId());
        SandboxComment comment = new SandboxComment(id, "urn:li:comment:(" + urn + "," + id + ")", urn, null, actor,
                text, Instant.now());
        return rest.faults().withEffect(fault, () -> state.comments().add(PROVIDER, comment),
                () -> Replies.json(201, commentNode(comment), LinkedInErrors.traceHeaders()));
    }

    /** {@code GET /rest/socialActions/{urn}/comments}: needs {@code r_member_social} or {@code r_organization_social}. */
    @GetMapping("/sandbox/linkedin/rest/socialActions/{urn}/comments")
    public DeferredResult<ResponseEntity<String>> comments(@PathVariable String urn,
                                                          @RequestParam(defaultValue = "10") int count,
                                                          @RequestParam(defaultValue = "0") int start,
                                                          HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        String author = rest.authorOf(urn);
        String token = LinkedInRest.bearer(request);
        return rest.faults().read(author, response, LinkedInErrors::invalidToken, () -> {
            Optional<LinkedInToken> known = rest.liveToken(token);
            ResponseEntity<String> refusal = rest.reader(request, token, known.map(LinkedInToken::author).orElse(null),
                    "partnerApiSocialActions.GET_ALL.20261101");
            if (refusal != null) {
                return refusal;
            }
            if (state.posts().find(PROVIDER, urn).isEmpty()) {
                return LinkedInErrors.notFound();
            }
            List<SandboxComment> all = state.comments().of(PROVIDER, urn);
            ObjectNode body = Json.object();
            body.putObject("paging").put("start", start).put("count", count).put("total", all.size());
            ArrayNode elements = body.putArray("elements");
            Paging.slice(all, Math.max(0, start), Math.max(1, count)).forEach(c -> elements.add(commentNode(c)));
            return Replies.json(200, body, LinkedInErrors.traceHeaders());
        });
    }

    private static ObjectNode commentNode(SandboxComment comment) {
        ObjectNode node = Json.object();
        node.put("id", comment.id());
        node.put("commentUrn", comment.urn());
        node.put("actor", comment.actor());
        node.put("object", comment.postId());
        node.putObject("message").put("text", comment.text());
        node.putObject("created").put("actor", comment.actor()).put("time", comment.createdAt().toEpochMilli());
        return node;
    }
}
