package io.herald.sandbox.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Paging;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxMedia;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState.Attachment;
import io.herald.sandbox.SandboxState;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

    static final String PROVIDER = LinkedInRest.PROVIDER;

    private final SandboxState state;
    private final LinkedInRest rest;

    LinkedInSandboxController(LinkedInRest rest) {
        this.state = rest.state();
        this.rest = rest;
    }

    /** A version retirement brought forward for one author: {@code {"author", "upTo": "YYYYMM"}}. */
    public record Retirement(String author, String upTo) {
    }

    @PostMapping("/sandbox/_admin/linkedin/retired-versions")
    public ResponseEntity<Void> retire(@RequestBody Retirement retirement) {
        rest.retire(retirement.author(), retirement.upTo());
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/sandbox/linkedin/rest/posts")
    public DeferredResult<ResponseEntity<String>> create(@RequestBody(required = false) String rawBody,
                                                        HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        JsonNode body = Json.parse(rawBody);
        String author = Json.text(body, "author");
        return rest.faults().write(author, SandboxFault.Operation.PUBLISH, response,
                () -> rest.tokenRefusal(LinkedInRest.bearer(request)), fault -> create(body, author, request, fault));
    }

    private DeferredResult<ResponseEntity<String>> create(JsonNode body, String author, HttpServletRequest request,
                                                         Optional<SandboxFault> fault) {
        ResponseEntity<String> refusal = rest.writer(request, author, "partnerApiPostsExternal.CREATE.20261101");
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        if (state.lapses().lapsed(PROVIDER, LinkedInRest.bearer(request), true).isPresent()) {
            return Replies.now(state, rest.tokenRefusal(LinkedInRest.bearer(request)));
        }
        String stored = Json.text(body, "commentary");
        if (stored == null) {
            return Replies.now(state, LinkedInErrors.error(422, 0, null, "/commentary :: field is required"));
        }
        String shown = LinkedInRest.render(stored);
        List<Attachment> images = new ArrayList<>();
        Optional<ResponseEntity<String>> refusedImages = images(body.path("content"), author, images);
        if (refusedImages.isPresent()) {
            return Replies.now(state, refusedImages.get());
        }
        for (SandboxPost earlier : state.posts().of(PROVIDER, author)) {
            if (earlier.text().equals(shown)) {
                return Replies.now(state, LinkedInErrors.refusedInput("/commentary",
                        "Content is a duplicate of " + earlier.id(), "Duplicate post is detected", "DUPLICATE_POST",
                        null));
            }
        }
        String urn = LinkedInRest.shareUrn(state.nextId());
        SandboxPost post = new SandboxPost(urn, author, shown, stored, null, null,
                Json.text(body, "lifecycleState"), Instant.now(), null, LinkedInRest.postUrl(urn));
        return rest.faults().withLateEffect(fault, lateBy -> {
            state.posts().add(PROVIDER, post.createdLater(lateBy));
            state.media().attach(PROVIDER, urn, images);
        }, () -> created(urn));
    }

    /** The post's images as {@code content} names them, checked: every one known, AVAILABLE and the author's. */
    private Optional<ResponseEntity<String>> images(JsonNode content, String author, List<Attachment> images) {
        if (content.has("media")) {
            images.add(new Attachment(Json.text(content.path("media"), "id"),
                    Json.text(content.path("media"), "altText")));
        } else if (content.has("multiImage")) {
            for (JsonNode image : content.path("multiImage").path("images")) {
                images.add(new Attachment(Json.text(image, "id"), Json.text(image, "altText")));
            }
            if (images.size() < 2 || images.size() > 20) {
                return Optional.of(refusedContent("/content/multiImage/images", "A multi-image post has 2 to 20 images",
                        "INVALID_MULTI_IMAGE"));
            }
        }
        for (Attachment image : images) {
            Optional<SandboxMedia> known = state.media().find(PROVIDER, image.mediaId());
            if (known.isEmpty() || !known.get().target().equals(author) || !"AVAILABLE".equals(known.get().status())) {
                return Optional.of(refusedContent("/content", "Image " + image.mediaId()
                        + " is not available, unknown, or not owned by the author", "INVALID_MEDIA_ASSET"));
            }
        }
        return Optional.empty();
    }

    /** A refused image, in the shape of the duplicate refusal. */
    private static ResponseEntity<String> refusedContent(String path, String description, String code) {
        return LinkedInErrors.refusedInput(path, description, description, code, path);
    }

    private static ResponseEntity<String> created(String urn) {
        HttpHeaders headers = LinkedInErrors.traceHeaders();
        headers.set("x-restli-id", urn);
        headers.set("Location", "/rest/posts/" + URLEncoder.encode(urn, StandardCharsets.UTF_8));
        return ResponseEntity.status(HttpStatus.CREATED).headers(headers).build();
    }

    @GetMapping(value = "/sandbox/linkedin/rest/posts", params = "q=author")
    public DeferredResult<ResponseEntity<String>> byAuthor(@RequestParam String author,
                                                          @RequestParam(defaultValue = "10") int count,
                                                          @RequestParam(defaultValue = "0") int start,
                                                          HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        Optional<SandboxFault> fault = rest.faults().take(author, SandboxFault.Operation.READ);
        if (fault.isPresent()) {
            // a faulted read answers without the header and token checks
            return rest.faults().faulted(fault.get(), response,
                    () -> rest.tokenRefusal(LinkedInRest.bearer(request)), () -> list(author, count, start));
        }
        ResponseEntity<String> refusal = rest.reader(request, LinkedInRest.bearer(request), author,
                "partnerApiPostsExternal.FINDER-author.20261101");
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        if (count < 1 || count > 100) {
            return Replies.now(state, LinkedInErrors.error(400, 0, "PARAM_INVALID", "count must be between 1 and 100"));
        }
        return Replies.now(state, list(author, count, start));
    }

    private ResponseEntity<String> list(String author, int count, int start) {
        List<SandboxPost> slice = Paging.slice(state.posts().newestFirst(PROVIDER, author), start, count);
        ObjectNode body = Json.object();
        ObjectNode paging = body.putObject("paging");
        paging.put("start", start);
        paging.put("count", count);
        paging.putArray("links");
        ArrayNode elements = body.putArray("elements");
        for (SandboxPost post : slice) {
            elements.add(rest.element(post));
        }
        return Replies.json(200, body, LinkedInErrors.traceHeaders());
    }
}
