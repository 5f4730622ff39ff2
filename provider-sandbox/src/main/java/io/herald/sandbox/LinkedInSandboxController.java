package io.herald.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxState.LinkedInToken;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * LinkedIn's Posts API under {@code /sandbox/linkedin/rest/posts}: version and protocol headers,
 * token scopes, 201 with {@code x-restli-id}, the 422 duplicate naming the earlier post, and the
 * little-text behaviour: an unescaped reserved character silently cuts the commentary.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class LinkedInSandboxController {

    static final String PROVIDER = "linkedin";
    /** Versions older than this are "retired" in the sandbox. */
    static final String OLDEST_ACTIVE_VERSION = "202511";
    private static final String RESERVED = "\\|{}@[]()<>#*_~";

    private final SandboxState state;

    public LinkedInSandboxController(SandboxState state) {
        this.state = state;
    }

    @PostMapping("/sandbox/linkedin/rest/posts")
    public DeferredResult<ResponseEntity<String>> create(@RequestBody(required = false) String rawBody,
                                                        HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        JsonNode body = Json.parse(rawBody);
        String author = Json.text(body, "author");
        Optional<SandboxFault> fault = author == null ? Optional.empty()
                : state.takeFault(PROVIDER, author, SandboxFault.Operation.PUBLISH);
        if (fault.isPresent()) {
            SandboxFault f = fault.get();
            switch (f.type()) {
                case RESET_AFTER_READ:
                    return Replies.closeConnection(response);
                case ERROR_5XX_NO_EFFECT:
                    return Replies.now(state, serverError());
                case RATE_LIMIT:
                    return Replies.now(state, rateLimited(f));
                case TOKEN_ERROR:
                    return Replies.now(state, tokenRefusal(bearer(request)));
                default:
                    break;
            }
        }
        ResponseEntity<String> refusal = checkHeaders(request);
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        Optional<LinkedInToken> token = liveToken(bearer(request));
        if (token.isEmpty()) {
            return Replies.now(state, tokenRefusal(bearer(request)));
        }
        if (author == null || !author.equals(token.get().author())
                || !token.get().scopes().contains(writeScope(author))) {
            return Replies.now(state, error(403, 100, "ACCESS_DENIED",
                    "Not enough permissions to access: partnerApiPostsExternal.CREATE.20261101"));
        }
        if (state.lapses().lapsed(PROVIDER, bearer(request), true).isPresent()) {
            return Replies.now(state, tokenRefusal(bearer(request)));
        }
        String stored = Json.text(body, "commentary");
        if (stored == null) {
            return Replies.now(state, error(422, 0, null, "/commentary :: field is required"));
        }
        String shown = render(stored);
        List<SandboxState.Attachment> images = new ArrayList<>();
        Optional<ResponseEntity<String>> refusedImages = images(body.path("content"), author, images);
        if (refusedImages.isPresent()) {
            return Replies.now(state, refusedImages.get());
        }
        for (SandboxPost earlier : state.posts(PROVIDER, author)) {
            if (earlier.text().equals(shown)) {
                return Replies.now(state, duplicate(earlier.id()));
            }
        }
        String urn = "urn:li:share:" + (7_100_000_000_000_000_000L + state.nextId());
        SandboxPost post = new SandboxPost(urn, author, shown, stored, null, null,
                Json.text(body, "lifecycleState"), Instant.now(), null,
                "https://www.linkedin.com/feed/update/" + urn + "/");
        if (fault.isEmpty()) {
            store(post, images);
            return Replies.now(state, created(urn));
        }
        SandboxFault f = fault.get();
        return switch (f.type()) {
            case DELAY_THEN_CREATE -> {
                store(post, images);
                yield Replies.after(state, f.delayMillis(), () -> created(urn));
            }
            case CREATE_AFTER -> {
                state.later(f.delayMillis(), () -> store(new SandboxPost(urn, author, shown, stored,
                        null, null, post.status(), post.createdAt().plusMillis(f.delayMillis()), null, post.url()),
                        images));
                yield Replies.hold(state);
            }
            case ERROR_5XX_WITH_EFFECT -> {
                store(post, images);
                yield Replies.now(state, serverError());
            }
            default -> throw new IllegalStateException("unexpected fault " + f.type());
        };
    }

    @GetMapping(value = "/sandbox/linkedin/rest/posts", params = "q=author")
    public DeferredResult<ResponseEntity<String>> byAuthor(@RequestParam String author,
                                                          @RequestParam(defaultValue = "10") int count,
                                                          @RequestParam(defaultValue = "0") int start,
                                                          HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, author, SandboxFault.Operation.READ);
        if (fault.isPresent()) {
            SandboxFault f = fault.get();
            return switch (f.type()) {
                case RESET_AFTER_READ -> Replies.closeConnection(response);
                case CREATE_AFTER -> Replies.hold(state);
                case RATE_LIMIT -> Replies.now(state, rateLimited(f));
                case TOKEN_ERROR -> Replies.now(state, tokenRefusal(bearer(request)));
                case DELAY_THEN_CREATE -> Replies.after(state, f.delayMillis(), () -> list(author, count, start));
                default -> Replies.now(state, serverError());
            };
        }
        ResponseEntity<String> refusal = checkHeaders(request);
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        Optional<LinkedInToken> token = liveToken(bearer(request));
        if (token.isEmpty()) {
            return Replies.now(state, tokenRefusal(bearer(request)));
        }
        if (!author.equals(token.get().author()) || !token.get().scopes().contains(readScope(author))) {
            return Replies.now(state, error(403, 100, "ACCESS_DENIED",
                    "Not enough permissions to access: partnerApiPostsExternal.FINDER-author.20261101"));
        }
        if (count < 1 || count > 100) {
            return Replies.now(state, error(400, 0, "PARAM_INVALID", "count must be between 1 and 100"));
        }
        return Replies.now(state, list(author, count, start));
    }

    private ResponseEntity<String> list(String author, int count, int start) {
        List<SandboxPost> posts = new ArrayList<>(state.posts(PROVIDER, author));
        Collections.reverse(posts);
        List<SandboxPost> slice = posts.subList(Math.min(start, posts.size()), Math.min(start + count, posts.size()));
        ObjectNode body = Json.object();
        ObjectNode paging = body.putObject("paging");
        paging.put("start", start);
        paging.put("count", count);
        paging.putArray("links");
        ArrayNode elements = body.putArray("elements");
        for (SandboxPost post : slice) {
            elements.add(element(post));
        }
        return Replies.json(200, body, traceHeaders());
    }

    /** A post as LinkedIn returns it; images and the edited flag appear only on posts that have them. */
    private ObjectNode element(SandboxPost post) {
        long millis = post.createdAt().toEpochMilli();
        List<SandboxState.Edit> edits = state.edits(PROVIDER, post.id());
        ObjectNode element = Json.object()
                .put("id", post.id())
                .put("author", post.target())
                .put("commentary", post.storedText())
                .put("visibility", "PUBLIC")
                .put("lifecycleState", post.status())
                .put("createdAt", millis)
                .put("publishedAt", millis)
                .put("lastModifiedAt", edits.isEmpty() ? millis : edits.get(edits.size() - 1).at().toEpochMilli());
        List<SandboxState.Attachment> images = state.attachments(PROVIDER, post.id());
        if (images.size() == 1) {
            ObjectNode media = element.putObject("content").putObject("media").put("id", images.get(0).mediaId());
            if (images.get(0).altText() != null) {
                media.put("altText", images.get(0).altText());
            }
        } else if (images.size() > 1) {
            ArrayNode list = element.putObject("content").putObject("multiImage").putArray("images");
            for (SandboxState.Attachment image : images) {
                ObjectNode item = list.addObject().put("id", image.mediaId());
                if (image.altText() != null) {
                    item.put("altText", image.altText());
                }
            }
        }
        if (!edits.isEmpty()) {
            element.putObject("lifecycleStateInfo").put("isEditedByAuthor", true);
        }
        return element;
    }

    /** {@code POST /rest/images?action=initializeUpload}: registers an image of the owner and names where its bytes go. */
    @PostMapping(value = "/sandbox/linkedin/rest/images", params = "action=initializeUpload")
    public DeferredResult<ResponseEntity<String>> initializeUpload(@RequestBody(required = false) String rawBody,
                                                                  HttpServletRequest request,
                                                                  HttpServletResponse response) {
        state.countRequest();
        String owner = Json.text(Json.parse(rawBody).path("initializeUploadRequest"), "owner");
        Optional<SandboxFault> fault = owner == null ? Optional.empty()
                : state.takeFault(PROVIDER, owner, SandboxFault.Operation.INITIALIZE_UPLOAD);
        DeferredResult<ResponseEntity<String>> early = beforeEffect(fault, response);
        if (early != null || isReset(fault)) {
            return early;
        }
        ResponseEntity<String> refusal = writer(request, owner, "partnerApiImagesExternal.ACTION.20261101");
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        String uploadId = UUID.randomUUID().toString().replace("-", "");
        String urn = "urn:li:image:D4E10AQ" + uploadId.substring(0, 16);
        String uploadUrl = ServletUriComponentsBuilder.fromContextPath(request)
                .path("/sandbox/linkedin/dms-uploads/" + uploadId).build().toUriString();
        long expiresAt = Instant.now().plusSeconds(24 * 3600).toEpochMilli();
        SandboxMedia image = new SandboxMedia(urn, owner, null, 0, null, null, null, null, null, null, uploadId,
                "WAITING_UPLOAD", null, Instant.now(), "https://media.licdn.com/dms/image/" + urn.substring(13));
        return Replies.withEffect(state, fault, () -> {
            state.putMedia(PROVIDER, image);
            uploads.put(uploadId, urn);
        }, () -> {
            ObjectNode body = Json.object();
            body.putObject("value").put("uploadUrlExpiresAt", expiresAt).put("uploadUrl", uploadUrl).put("image", urn);
            return Replies.json(200, body, traceHeaders());
        }, LinkedInSandboxController::serverError);
    }

    /**
     * {@code PUT {uploadUrl}}: the image's bytes, with the owner's token → 201, no body, an ETag.
     * JPG, PNG and GIF become AVAILABLE at once; other bytes are taken, and the image's
     * processing fails, as LinkedIn reports it.
     */
    @PutMapping("/sandbox/linkedin/dms-uploads/{uploadId}")
    public DeferredResult<ResponseEntity<String>> upload(@PathVariable String uploadId,
                                                        @RequestBody(required = false) byte[] bytes,
                                                        HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        Optional<SandboxMedia> image = Optional.ofNullable(uploads.get(uploadId)).flatMap(urn -> state.media(PROVIDER, urn));
        if (image.isEmpty()) {
            return Replies.now(state, error(404, 0, "NOT_FOUND", "Upload not found"));
        }
        String owner = image.get().target();
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, owner, SandboxFault.Operation.UPLOAD);
        DeferredResult<ResponseEntity<String>> early = beforeEffect(fault, response);
        if (early != null || isReset(fault)) {
            return early;
        }
        Optional<LinkedInToken> token = liveToken(bearer(request));
        if (token.isEmpty()) {
            return Replies.now(state, tokenRefusal(bearer(request)));
        }
        if (!owner.equals(token.get().author())) {
            return Replies.now(state, error(403, 100, "ACCESS_DENIED", "Not enough permissions to upload this image"));
        }
        byte[] received = bytes == null ? new byte[0] : bytes;
        String type = SandboxImages.type(received).filter(LINKEDIN_FORMATS::contains).orElse(null);
        SandboxImages.Size size = type == null ? null : SandboxImages.size(received, type).orElse(null);
        String hash = SandboxImages.sha256(received);
        return Replies.withEffect(state, fault, () -> state.updateMedia(PROVIDER, image.get().id(),
                        m -> m.withBytes(type, received.length, hash, size == null ? null : size.width(),
                                size == null ? null : size.height(), type == null ? "PROCESSING_FAILED" : "AVAILABLE")),
                () -> {
                    HttpHeaders headers = traceHeaders();
                    headers.setETag("\"" + hash.substring(0, 32) + "\"");
                    return ResponseEntity.status(HttpStatus.CREATED).headers(headers).build();
                }, LinkedInSandboxController::serverError);
    }

    /** {@code GET /rest/images/{urn}}: the image's status (WAITING_UPLOAD, AVAILABLE, PROCESSING_FAILED). */
    @GetMapping("/sandbox/linkedin/rest/images/{urn}")
    public DeferredResult<ResponseEntity<String>> image(@PathVariable String urn, HttpServletRequest request,
                                                       HttpServletResponse response) {
        state.countRequest();
        Optional<SandboxMedia> image = state.media(PROVIDER, urn);
        String owner = image.map(SandboxMedia::target).orElse(null);
        String token = bearer(request);
        return read(owner, response, () -> {
            ResponseEntity<String> refusal = checkHeaders(request);
            if (refusal != null) {
                return refusal;
            }
            Optional<LinkedInToken> known = liveToken(token);
            if (known.isEmpty()) {
                return tokenRefusal(bearer(request));
            }
            Optional<SandboxMedia> now = state.media(PROVIDER, urn);
            if (now.isEmpty()) {
                return notFound();
            }
            if (!now.get().target().equals(known.get().author())) {
                return error(403, 100, "ACCESS_DENIED", "Not enough permissions to access: images.GET.20261101");
            }
            ObjectNode body = Json.object().put("owner", now.get().target()).put("status", now.get().status())
                    .put("id", urn);
            if ("AVAILABLE".equals(now.get().status())) {
                body.put("downloadUrl", now.get().sourceUrl())
                        .put("downloadUrlExpiresAt", Instant.now().plusSeconds(3600).toEpochMilli());
            }
            return Replies.json(200, body, traceHeaders());
        });
    }

    /** {@code GET /rest/posts/{urn}}: one post; needs the read scope, as reading by author does. */
    @GetMapping("/sandbox/linkedin/rest/posts/{urn}")
    public DeferredResult<ResponseEntity<String>> post(@PathVariable String urn, HttpServletRequest request,
                                                      HttpServletResponse response) {
        state.countRequest();
        String author = authorOf(urn);
        String token = bearer(request);
        return read(author, response, () -> {
            ResponseEntity<String> refusal = reader(request, token, author, "partnerApiPostsExternal.GET.20261101");
            if (refusal != null) {
                return refusal;
            }
            return state.post(PROVIDER, urn).map(post -> Replies.json(200, element(post), traceHeaders()))
                    .orElseGet(LinkedInSandboxController::notFound);
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
        String author = authorOf(urn);
        Optional<SandboxFault> fault = author == null ? Optional.empty()
                : state.takeFault(PROVIDER, author, SandboxFault.Operation.EDIT);
        DeferredResult<ResponseEntity<String>> early = beforeEffect(fault, response);
        if (early != null || isReset(fault)) {
            return early;
        }
        if (!"PARTIAL_UPDATE".equals(request.getHeader("X-RestLi-Method"))) {
            return Replies.now(state, error(400, 0, null,
                    "An update of a post is a PARTIAL_UPDATE: send the X-RestLi-Method header"));
        }
        Optional<SandboxPost> post = state.post(PROVIDER, urn);
        if (post.isEmpty()) {
            ResponseEntity<String> refusal = checkHeaders(request);
            return Replies.now(state, refusal != null ? refusal : notFound());
        }
        ResponseEntity<String> refusal = writer(request, post.get().target(),
                "partnerApiPostsExternal.PARTIAL_UPDATE.20261101");
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        JsonNode set = Json.parse(rawBody).path("patch").path("$set");
        if (!set.isObject()) {
            return Replies.now(state, error(400, 0, null, "/patch :: a $set of the fields to change is required"));
        }
        for (java.util.Iterator<String> names = set.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!UPDATABLE.contains(name)) {
                return Replies.now(state, error(422, 0, null, "ERROR :: /" + name + " :: field cannot be updated"));
            }
        }
        String commentary = Json.text(set, "commentary");
        String lifecycle = Json.text(set, "lifecycleState");
        return Replies.withEffect(state, fault, () -> state.updatePost(PROVIDER, post.get().target(), urn,
                        current -> new SandboxPost(current.id(), current.target(),
                                commentary != null ? render(commentary) : current.text(),
                                commentary != null ? commentary : current.storedText(), current.link(), current.title(),
                                lifecycle != null ? lifecycle : current.status(), current.createdAt(),
                                current.publicationMeta(), current.url()))
                        .ifPresent(changed -> state.recordEdit(PROVIDER, changed, Instant.now())),
                () -> ResponseEntity.status(HttpStatus.NO_CONTENT).headers(traceHeaders()).build(),
                LinkedInSandboxController::serverError);
    }

    /** {@code DELETE /rest/posts/{urn}} → 204, and 204 again for a post already deleted. */
    @DeleteMapping("/sandbox/linkedin/rest/posts/{urn}")
    public DeferredResult<ResponseEntity<String>> delete(@PathVariable String urn, HttpServletRequest request,
                                                        HttpServletResponse response) {
        state.countRequest();
        String author = authorOf(urn);
        Optional<SandboxFault> fault = author == null ? Optional.empty()
                : state.takeFault(PROVIDER, author, SandboxFault.Operation.DELETE);
        DeferredResult<ResponseEntity<String>> early = beforeEffect(fault, response);
        if (early != null || isReset(fault)) {
            return early;
        }
        if (author == null) {
            ResponseEntity<String> refusal = checkHeaders(request);
            return Replies.now(state, refusal != null ? refusal : notFound());
        }
        ResponseEntity<String> refusal = writer(request, author, "partnerApiPostsExternal.DELETE.20261101");
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        return Replies.withEffect(state, fault,
                () -> state.removePost(PROVIDER, author, urn, "deleted", Instant.now()),
                () -> ResponseEntity.status(HttpStatus.NO_CONTENT).headers(traceHeaders()).build(),
                LinkedInSandboxController::serverError);
    }

    /** {@code POST /rest/socialActions/{urn}/comments}: a comment by the actor on the post → 201 with the comment. */
    @PostMapping("/sandbox/linkedin/rest/socialActions/{urn}/comments")
    public DeferredResult<ResponseEntity<String>> comment(@PathVariable String urn,
                                                         @RequestBody(required = false) String rawBody,
                                                         HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        Optional<SandboxPost> post = state.post(PROVIDER, urn);
        Optional<SandboxFault> fault = post.isEmpty() ? Optional.empty()
                : state.takeFault(PROVIDER, post.get().target(), SandboxFault.Operation.COMMENT);
        DeferredResult<ResponseEntity<String>> early = beforeEffect(fault, response);
        if (early != null || isReset(fault)) {
            return early;
        }
        JsonNode body = Json.parse(rawBody);
        String actor = Json.text(body, "actor");
        ResponseEntity<String> refusal = writer(request, actor, "partnerApiSocialActions.CREATE.20261101");
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        if (post.isEmpty()) {
            return Replies.now(state, notFound());
        }
        String text = Json.text(body.path("message"), "text");
        if (text == null || text.isBlank()) {
            return Replies.now(state, error(422, 0, null, "ERROR :: /message/text :: field is required"));
        }
        String id = Long.toString(7_200_000_000_000_000_000L + state.nextId());
        SandboxComment comment = new SandboxComment(id, "urn:li:comment:(" + urn + "," + id + ")", urn, null, actor,
                text, Instant.now());
        return Replies.withEffect(state, fault, () -> state.addComment(PROVIDER, comment),
                () -> Replies.json(201, commentNode(comment), traceHeaders()), LinkedInSandboxController::serverError);
    }

    /** {@code GET /rest/socialActions/{urn}/comments}: needs {@code r_member_social} or {@code r_organization_social}. */
    @GetMapping("/sandbox/linkedin/rest/socialActions/{urn}/comments")
    public DeferredResult<ResponseEntity<String>> comments(@PathVariable String urn,
                                                          @RequestParam(defaultValue = "10") int count,
                                                          @RequestParam(defaultValue = "0") int start,
                                                          HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        String author = authorOf(urn);
        String token = bearer(request);
        return read(author, response, () -> {
            Optional<LinkedInToken> known = liveToken(token);
            ResponseEntity<String> refusal = reader(request, token, known.map(LinkedInToken::author).orElse(null),
                    "partnerApiSocialActions.GET_ALL.20261101");
            if (refusal != null) {
                return refusal;
            }
            if (state.post(PROVIDER, urn).isEmpty()) {
                return notFound();
            }
            List<SandboxComment> all = state.comments(PROVIDER, urn);
            int from = Math.min(Math.max(0, start), all.size());
            ObjectNode body = Json.object();
            body.putObject("paging").put("start", start).put("count", count).put("total", all.size());
            ArrayNode elements = body.putArray("elements");
            all.subList(from, Math.min(from + Math.max(1, count), all.size())).forEach(c -> elements.add(commentNode(c)));
            return Replies.json(200, body, traceHeaders());
        });
    }

    private static final Set<String> UPDATABLE =
            Set.of("commentary", "lifecycleState", "contentCallToActionLabel", "contentLandingPage");
    private static final List<String> LINKEDIN_FORMATS = List.of("image/jpeg", "image/png", "image/gif");

    /** Upload ids (the last segment of an upload URL) to the image they are for. */
    private final Map<String, String> uploads = new ConcurrentHashMap<>();

    /** The post's images as {@code content} names them, checked: every one known, AVAILABLE and the author's. */
    private Optional<ResponseEntity<String>> images(JsonNode content, String author,
                                                    List<SandboxState.Attachment> images) {
        if (content.has("media")) {
            images.add(new SandboxState.Attachment(Json.text(content.path("media"), "id"),
                    Json.text(content.path("media"), "altText")));
        } else if (content.has("multiImage")) {
            for (JsonNode image : content.path("multiImage").path("images")) {
                images.add(new SandboxState.Attachment(Json.text(image, "id"), Json.text(image, "altText")));
            }
            if (images.size() < 2 || images.size() > 20) {
                return Optional.of(refusedContent("/content/multiImage/images", "A multi-image post has 2 to 20 images",
                        "INVALID_MULTI_IMAGE"));
            }
        }
        for (SandboxState.Attachment image : images) {
            Optional<SandboxMedia> known = state.media(PROVIDER, image.mediaId());
            if (known.isEmpty() || !known.get().target().equals(author) || !"AVAILABLE".equals(known.get().status())) {
                return Optional.of(refusedContent("/content", "Image " + image.mediaId()
                        + " is not available, unknown, or not owned by the author", "INVALID_MEDIA_ASSET"));
            }
        }
        return Optional.empty();
    }

    /** A refused image, in the shape of the duplicate refusal. */
    private static ResponseEntity<String> refusedContent(String path, String description, String code) {
        ObjectNode body = Json.object();
        body.put("message", "ERROR :: " + path + " :: " + description);
        body.putObject("errorDetails").putArray("inputErrors").addObject()
                .put("description", description)
                .put("code", code)
                .putObject("input").putObject("inputPath").put("fieldPath", path);
        body.put("status", 422);
        return Replies.json(422, body, traceHeaders());
    }

    private void store(SandboxPost post, List<SandboxState.Attachment> images) {
        state.addPost(PROVIDER, post);
        state.attach(PROVIDER, post.id(), images);
    }

    /** The author of the post (or of the deleted post) with this URN, if any. */
    private String authorOf(String urn) {
        return state.post(PROVIDER, urn).map(SandboxPost::target)
                .or(() -> state.deletion(PROVIDER, urn).map(d -> d.post().target()))
                .orElse(null);
    }

    /** Null when the request's headers and token may write as {@code author}, else LinkedIn's refusal. */
    private ResponseEntity<String> writer(HttpServletRequest request, String author, String permission) {
        ResponseEntity<String> refusal = checkHeaders(request);
        if (refusal != null) {
            return refusal;
        }
        Optional<LinkedInToken> token = liveToken(bearer(request));
        if (token.isEmpty()) {
            return tokenRefusal(bearer(request));
        }
        if (author == null || !author.equals(token.get().author())
                || !token.get().scopes().contains(writeScope(author))) {
            return error(403, 100, "ACCESS_DENIED", "Not enough permissions to access: " + permission);
        }
        return null;
    }

    /** Null when the headers and token may read as {@code author}: the restricted read scope is needed. */
    private ResponseEntity<String> reader(HttpServletRequest request, String token, String author, String permission) {
        ResponseEntity<String> refusal = checkHeaders(request);
        if (refusal != null) {
            return refusal;
        }
        Optional<LinkedInToken> known = liveToken(token);
        if (known.isEmpty()) {
            return tokenRefusal(bearer(request));
        }
        String who = author != null ? author : known.get().author();
        if (!who.equals(known.get().author()) || !known.get().scopes().contains(readScope(who))) {
            return error(403, 100, "ACCESS_DENIED", "Not enough permissions to access: " + permission);
        }
        return null;
    }

    /** A read answered as a READ fault of the author says; the answer is built when it is sent. */
    private DeferredResult<ResponseEntity<String>> read(String author, HttpServletResponse response,
                                                       java.util.function.Supplier<ResponseEntity<String>> answer) {
        Optional<SandboxFault> fault = author == null ? Optional.empty()
                : state.takeFault(PROVIDER, author, SandboxFault.Operation.READ);
        if (fault.isEmpty()) {
            return Replies.now(state, answer.get());
        }
        SandboxFault f = fault.get();
        return switch (f.type()) {
            case RESET_AFTER_READ -> Replies.closeConnection(response);
            case CREATE_AFTER -> Replies.hold(state);
            case RATE_LIMIT -> Replies.now(state, rateLimited(f));
            case TOKEN_ERROR -> Replies.now(state, error(401, 65600, "INVALID_ACCESS_TOKEN", "Invalid access token"));
            case DELAY_THEN_CREATE -> Replies.after(state, f.delayMillis(), answer);
            default -> Replies.now(state, serverError());
        };
    }

    /** Faults that act before any effect (as on create); null when there is none or it acts with the effect. */
    private DeferredResult<ResponseEntity<String>> beforeEffect(Optional<SandboxFault> fault,
                                                               HttpServletResponse response) {
        if (fault.isEmpty()) {
            return null;
        }
        return switch (fault.get().type()) {
            case RESET_AFTER_READ -> Replies.closeConnection(response);
            case ERROR_5XX_NO_EFFECT -> Replies.now(state, serverError());
            case RATE_LIMIT -> Replies.now(state, rateLimited(fault.get()));
            case TOKEN_ERROR -> Replies.now(state, error(401, 65600, "INVALID_ACCESS_TOKEN", "Invalid access token"));
            default -> null;
        };
    }

    private static boolean isReset(Optional<SandboxFault> fault) {
        return fault.isPresent() && fault.get().type() == SandboxFault.Type.RESET_AFTER_READ;
    }

    private ObjectNode commentNode(SandboxComment comment) {
        ObjectNode node = Json.object();
        node.put("id", comment.id());
        node.put("commentUrn", comment.urn());
        node.put("actor", comment.actor());
        node.put("object", comment.postId());
        node.putObject("message").put("text", comment.text());
        node.putObject("created").put("actor", comment.actor()).put("time", comment.createdAt().toEpochMilli());
        return node;
    }

    private static ResponseEntity<String> notFound() {
        return error(404, 0, "NOT_FOUND", "Not Found");
    }

    /** What LinkedIn shows: escapes removed, and the text cut at the first unescaped reserved character. */
    static String render(String commentary) {
        StringBuilder shown = new StringBuilder();
        for (int i = 0; i < commentary.length(); i++) {
            char c = commentary.charAt(i);
            if (c == '\\' && i + 1 < commentary.length() && RESERVED.indexOf(commentary.charAt(i + 1)) >= 0) {
                shown.append(commentary.charAt(++i));
            } else if (RESERVED.indexOf(c) >= 0) {
                break;
            } else {
                shown.append(c);
            }
        }
        return shown.toString();
    }

    static String writeScope(String author) {
        return author.startsWith("urn:li:organization:") ? "w_organization_social" : "w_member_social";
    }

    static String readScope(String author) {
        return author.startsWith("urn:li:organization:") ? "r_organization_social" : "r_member_social";
    }

    private static String bearer(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        return header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).trim() : null;
    }

    private static ResponseEntity<String> checkHeaders(HttpServletRequest request) {
        String version = request.getHeader("LinkedIn-Version");
        if (version == null || version.isBlank()) {
            return error(400, 0, "VERSION_MISSING",
                    "A version must be present. Please specify a version by adding the LinkedIn-Version header.");
        }
        if (!version.matches("\\d{6}") || version.compareTo(OLDEST_ACTIVE_VERSION) < 0) {
            return error(426, 0, "NONEXISTENT_VERSION", "Requested version " + version + " is not active");
        }
        return null;
    }

    private static ResponseEntity<String> created(String urn) {
        HttpHeaders headers = traceHeaders();
        headers.set("x-restli-id", urn);
        headers.set("Location", "/rest/posts/" + java.net.URLEncoder.encode(urn, java.nio.charset.StandardCharsets.UTF_8));
        return ResponseEntity.status(HttpStatus.CREATED).headers(headers).build();
    }

    private static ResponseEntity<String> duplicate(String earlierUrn) {
        ObjectNode body = Json.object();
        body.put("message", "ERROR :: /commentary :: Content is a duplicate of " + earlierUrn);
        body.putObject("errorDetails").putArray("inputErrors").addObject()
                .put("description", "Duplicate post is detected")
                .put("code", "DUPLICATE_POST")
                .putObject("input");
        body.put("status", 422);
        return Replies.json(422, body, traceHeaders());
    }

    private static ResponseEntity<String> rateLimited(SandboxFault fault) {
        HttpHeaders headers = traceHeaders();
        if (fault.retryAfterSeconds() > 0) {
            headers.set("Retry-After", Long.toString(fault.retryAfterSeconds()));
        }
        return Replies.json(429, errorBody(429, 101, "TOO_MANY_REQUESTS",
                "Resource level throttle APPLICATION DAY limit for calls to this resource is reached."), headers);
    }

    private static ResponseEntity<String> serverError() {
        return Replies.json(500, errorBody(500, 0, null, "Internal Server Error"), traceHeaders());
    }

    /** A registered token that has not lapsed; a post uses up one of those left before a lapse. */
    private Optional<LinkedInToken> liveToken(String token) {
        return state.lapses().lapsed(PROVIDER, token, false).isPresent() ? Optional.empty()
                : state.linkedInToken(token);
    }

    /** LinkedIn's 401 for a token it does not accept: expired and revoked ones say so (PROVIDERS.md). */
    private ResponseEntity<String> tokenRefusal(String token) {
        Optional<String> lapsed = state.lapses().lapsed(PROVIDER, token, false);
        if (lapsed.isEmpty()) {
            return error(401, 65600, "INVALID_ACCESS_TOKEN", "Invalid access token");
        }
        return "REVOKED".equals(lapsed.get())
                ? error(401, 65601, "REVOKED_ACCESS_TOKEN", "The token used in the request has been revoked by the user")
                : error(401, 65602, "EXPIRED_ACCESS_TOKEN", "The token used in the request has expired");
    }

    private static ResponseEntity<String> error(int status, int serviceErrorCode, String code, String message) {
        return Replies.json(status, errorBody(status, serviceErrorCode, code, message), traceHeaders());
    }

    private static ObjectNode errorBody(int status, int serviceErrorCode, String code, String message) {
        ObjectNode body = Json.object();
        body.put("status", status);
        if (serviceErrorCode > 0) {
            body.put("serviceErrorCode", serviceErrorCode);
        }
        if (code != null) {
            body.put("code", code);
        }
        body.put("message", message);
        return body;
    }

    private static HttpHeaders traceHeaders() {
        HttpHeaders headers = new HttpHeaders();
        headers.set("x-li-uuid", UUID.randomUUID().toString().replace("-", "").substring(0, 22));
        headers.set("x-li-fabric", "prod-lor1");
        return headers;
    }
}
