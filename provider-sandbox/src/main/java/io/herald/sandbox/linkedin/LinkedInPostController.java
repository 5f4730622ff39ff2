package io.herald.sandbox.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/** One LinkedIn post by URN, {@code /sandbox/linkedin/rest/posts/{urn}}: read, partial update and delete. */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class LinkedInPostController {

    private static final String PROVIDER = LinkedInRest.PROVIDER;
    private static final Set<String> UPDATABLE =
            Set.of("commentary", "lifecycleState", "contentCallToActionLabel", "contentLandingPage");

    private final SandboxState state;
    private final LinkedInRest rest;

    LinkedInPostController(LinkedInRest rest) {
        this.state = rest.state();
        this.rest = rest;
    }

    /** {@code GET /rest/posts/{urn}}: one post; needs the read scope, as reading by author does. */
    @GetMapping("/sandbox/linkedin/rest/posts/{urn}")
    public DeferredResult<ResponseEntity<String>> post(@PathVariable String urn, HttpServletRequest request,
                                                      HttpServletResponse response) {
        state.countRequest();
        String author = rest.authorOf(urn);
        String token = LinkedInRest.bearer(request);
        return rest.faults().read(author, response, LinkedInErrors::invalidToken, () -> {
            ResponseEntity<String> refusal = rest.reader(request, token, author, "partnerApiPostsExternal.GET.20261101");
            if (refusal != null) {
                return refusal;
            }
            return state.posts().find(PROVIDER, urn)
                    .map(post -> Replies.json(200, rest.element(post), LinkedInErrors.traceHeaders()))
                    .orElseGet(LinkedInErrors::notFound);
        });
    }

    /**
     * {@code POST /rest/posts/{urn}} with {@code X-RestLi-Method: PARTIAL_UPDATE} and
     * {@code {"patch":{"$set":{"commentary":…}}}} → 204. Only the text (and the call-to-action and
     * lifecycle fields) can change; the little-text escapes apply as on create.
     */
    @PostMapping("/sandbox/linkedin/rest/posts/{urn}")
    public DeferredResult<ResponseEntity<String>> update(@PathVariable String urn,
                                                        @RequestBody(required = false) String rawBody,
                                                        HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        return rest.faults().write(rest.authorOf(urn), SandboxFault.Operation.EDIT, response,
                LinkedInErrors::invalidToken, fault -> update(urn, rawBody, request, fault));
    }

    private DeferredResult<ResponseEntity<String>> update(String urn, String rawBody, HttpServletRequest request,
                                                         Optional<SandboxFault> fault) {
        if (!"PARTIAL_UPDATE".equals(request.getHeader("X-RestLi-Method"))) {
            return Replies.now(state, LinkedInErrors.error(400, 0, null,
                    "An update of a post is a PARTIAL_UPDATE: send the X-RestLi-Method header"));
        }
        Optional<SandboxPost> post = state.posts().find(PROVIDER, urn);
        if (post.isEmpty()) {
            return Replies.now(state, headersOrNotFound(request));
        }
        ResponseEntity<String> refusal = rest.writer(request, post.get().target(),
                "partnerApiPostsExternal.PARTIAL_UPDATE.20261101");
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        JsonNode set = Json.parse(rawBody).path("patch").path("$set");
        if (!set.isObject()) {
            return Replies.now(state, LinkedInErrors.error(400, 0, null,
                    "/patch :: a $set of the fields to change is required"));
        }
        for (Iterator<String> names = set.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!UPDATABLE.contains(name)) {
                return Replies.now(state, LinkedInErrors.error(422, 0, null,
                        "ERROR :: /" + name + " :: field cannot be updated"));
            }
        }
        String commentary = Json.text(set, "commentary");
        String lifecycle = Json.text(set, "lifecycleState");
        return rest.faults().withEffect(fault, () -> state.posts().update(PROVIDER, post.get().target(), urn,
                        current -> new SandboxPost(current.id(), current.target(),
                                commentary != null ? LinkedInRest.render(commentary) : current.text(),
                                commentary != null ? commentary : current.storedText(), current.link(), current.title(),
                                lifecycle != null ? lifecycle : current.status(), current.createdAt(),
                                current.publicationMeta(), current.url()))
                        .ifPresent(changed -> state.posts().recordEdit(PROVIDER, changed, Instant.now())),
                LinkedInPostController::noContent);
    }

    /** {@code DELETE /rest/posts/{urn}} → 204, and 204 again for a post already deleted. */
    @DeleteMapping("/sandbox/linkedin/rest/posts/{urn}")
    public DeferredResult<ResponseEntity<String>> delete(@PathVariable String urn, HttpServletRequest request,
                                                        HttpServletResponse response) {
        state.countRequest();
        String author = rest.authorOf(urn);
        return rest.faults().write(author, SandboxFault.Operation.DELETE, response, LinkedInErrors::invalidToken,
                fault -> {
                    if (author == null) {
                        return Replies.now(state, headersOrNotFound(request));
                    }
                    ResponseEntity<String> refusal = rest.writer(request, author,
                            "partnerApiPostsExternal.DELETE.20261101");
                    if (refusal != null) {
                        return Replies.now(state, refusal);
                    }
                    return rest.faults().withEffect(fault,
                            () -> state.posts().remove(PROVIDER, author, urn, "deleted", Instant.now()),
                            LinkedInPostController::noContent);
                });
    }

    /** For a post that does not exist: the version header's refusal first, else 404. */
    private static ResponseEntity<String> headersOrNotFound(HttpServletRequest request) {
        ResponseEntity<String> refusal = LinkedInRest.checkHeaders(request);
        return refusal != null ? refusal : LinkedInErrors.notFound();
    }

    private static ResponseEntity<String> noContent() {
        return ResponseEntity.status(HttpStatus.NO_CONTENT).headers(LinkedInErrors.traceHeaders()).build();
    }
}
