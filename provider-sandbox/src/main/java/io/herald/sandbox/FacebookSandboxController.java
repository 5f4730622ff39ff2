package io.herald.sandbox;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxState.FacebookToken;
import io.herald.sandbox.SandboxState.FacebookTokenKind;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
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

    static final String PROVIDER = "facebook";
    private static final DateTimeFormatter CREATED_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssZ").withZone(ZoneOffset.UTC);

    private final SandboxState state;

    public FacebookSandboxController(SandboxState state) {
        this.state = state;
    }

    @PostMapping("/sandbox/facebook/{version}/{pageId}/feed")
    public DeferredResult<ResponseEntity<String>> create(@PathVariable String pageId,
                                                        @RequestParam Map<String, String> params,
                                                        HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, pageId, SandboxFault.Operation.PUBLISH);
        if (fault.isPresent()) {
            DeferredResult<ResponseEntity<String>> early = beforeEffect(fault.get(), response);
            if (early != null || fault.get().type() == SandboxFault.Type.RESET_AFTER_READ) {
                return early;
            }
        }
        ResponseEntity<String> refusal = authorise(token(request, params), pageId, true);
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        String message = params.get("message");
        String link = params.get("link");
        List<String> mediaIds = attachedMedia(params);
        if ((message == null || message.isBlank()) && (link == null || link.isBlank()) && mediaIds.isEmpty()) {
            return Replies.now(state, error(400, 197, null, "(#197) The post is empty: give it a message or a link."));
        }
        boolean published = !"false".equals(params.get("published"));
        Instant now = Instant.now();
        if (!published && params.containsKey("scheduled_publish_time")) {
            long at;
            try {
                at = Long.parseLong(params.get("scheduled_publish_time"));
            } catch (NumberFormatException e) {
                at = -1;
            }
            if (at < now.plusSeconds(600).getEpochSecond() || at > now.plusSeconds(75L * 24 * 3600).getEpochSecond()) {
                return Replies.now(state, error(400, 100, null, "(#100) The specified scheduled publish time is invalid."));
            }
        }
        List<SandboxState.Attachment> images = new ArrayList<>();
        for (int i = 0; i < mediaIds.size(); i++) {
            Optional<SandboxMedia> photo = livePhoto(mediaIds.get(i)).filter(m -> m.target().equals(pageId));
            if (photo.isEmpty()) {
                return Replies.now(state, error(400, 100, null,
                        "(#100) param attached_media[" + i + "] has an invalid media_fbid"));
            }
            if (photo.get().postId() != null || mediaIds.indexOf(mediaIds.get(i)) != i) {
                return Replies.now(state, error(400, 100, 1366051, "These photos were already posted."));
            }
            images.add(new SandboxState.Attachment(photo.get().id(), photo.get().altText()));
        }
        Optional<SandboxPost> last = state.lastPost(PROVIDER, pageId);
        if (message != null && last.isPresent() && message.equals(last.get().text())) {
            return Replies.now(state, error(400, 506, null, "(#506) Duplicate status message"));
        }
        String id = pageId + "_" + state.nextId();
        SandboxPost post = new SandboxPost(id, pageId, message, message, link, null,
                published ? "published" : "scheduled", now, null, "https://www.facebook.com/" + id);
        ObjectNode body = Json.object().put("id", id);
        if (fault.isEmpty()) {
            store(post, images);
            return Replies.now(state, Replies.json(200, body, usageHeaders(pageId, 0)));
        }
        return withEffect(fault.get(), post, images, body, pageId);
    }

    /** The post exists from here on, with its photos, which are then part of it. */
    private void store(SandboxPost post, List<SandboxState.Attachment> images) {
        state.addPost(PROVIDER, post);
        state.attach(PROVIDER, post.id(), images);
        for (SandboxState.Attachment image : images) {
            state.updateMedia(PROVIDER, image.mediaId(), m -> m.withPost(post.id()));
        }
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

    /** Faults that act before anything is stored; null when the fault needs the post created first. */
    private DeferredResult<ResponseEntity<String>> beforeEffect(SandboxFault fault, HttpServletResponse response) {
        return switch (fault.type()) {
            case RESET_AFTER_READ -> Replies.closeConnection(response);
            case ERROR_5XX_NO_EFFECT -> Replies.now(state, serviceError());
            case RATE_LIMIT -> Replies.now(state, rateLimited(fault));
            case TOKEN_ERROR -> Replies.now(state, error(400, 190, 463,
                    "Error validating access token: Session has expired on Sunday, 29-Nov-26 09:00:00 PST. "
                            + "The current time is Sunday, 29-Nov-26 10:00:00 PST."));
            case VALIDATION_ERROR -> Replies.now(state, error(400, 100, null,
                    "(#100) Invalid parameter: the message is not allowed on this Page"));
            default -> null;
        };
    }

    private DeferredResult<ResponseEntity<String>> withEffect(SandboxFault fault, SandboxPost post,
                                                              List<SandboxState.Attachment> images, ObjectNode body,
                                                              String pageId) {
        return switch (fault.type()) {
            case DELAY_THEN_CREATE -> {
                store(post, images);
                yield Replies.after(state, fault.delayMillis(), () -> Replies.json(200, body, usageHeaders(pageId, 0)));
            }
            case CREATE_AFTER -> {
                Instant created = post.createdAt().plusMillis(fault.delayMillis());
                state.later(fault.delayMillis(), () -> store(new SandboxPost(post.id(), post.target(),
                        post.text(), post.storedText(), post.link(), null, post.status(), created, null, post.url()),
                        images));
                yield Replies.hold(state);
            }
            case ERROR_5XX_WITH_EFFECT -> {
                store(post, images);
                yield Replies.now(state, serviceError());
            }
            default -> throw new IllegalStateException("fault " + fault.type() + " is handled before the effect");
        };
    }

    @GetMapping({"/sandbox/facebook/{version}/{pageId}/feed", "/sandbox/facebook/{version}/{pageId}/posts",
            "/sandbox/facebook/{version}/{pageId}/scheduled_posts"})
    public DeferredResult<ResponseEntity<String>> read(@PathVariable String pageId,
                                                      @RequestParam Map<String, String> params,
                                                      HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, pageId, SandboxFault.Operation.READ);
        if (fault.isPresent()) {
            SandboxFault f = fault.get();
            return switch (f.type()) {
                case RESET_AFTER_READ -> Replies.closeConnection(response);
                case CREATE_AFTER -> Replies.hold(state);
                case DELAY_THEN_CREATE -> Replies.after(state, f.delayMillis(), () -> page(pageId, params, request));
                case RATE_LIMIT -> Replies.now(state, rateLimited(f));
                case TOKEN_ERROR -> Replies.now(state, error(400, 190, 463, "Error validating access token: Session has expired."));
                default -> Replies.now(state, serviceError());
            };
        }
        String token = token(request, params);
        ResponseEntity<String> refusal = authorise(token, pageId, false);
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        return Replies.now(state, page(pageId, params, request));
    }

    private ResponseEntity<String> page(String pageId, Map<String, String> params, HttpServletRequest request) {
        String wanted = request.getRequestURI().endsWith("/scheduled_posts") ? "scheduled" : "published";
        List<SandboxPost> all = new ArrayList<>(state.posts(PROVIDER, pageId).stream()
                .filter(p -> wanted.equals(p.status()))
                .toList());
        Collections.reverse(all);
        long since = parseLong(params.get("since"), Long.MIN_VALUE);
        long until = parseLong(params.get("until"), Long.MAX_VALUE);
        List<SandboxPost> window = all.stream()
                .filter(p -> p.createdAt().getEpochSecond() >= since && p.createdAt().getEpochSecond() <= until)
                .toList();
        int limit = (int) Math.min(100, Math.max(1, parseLong(params.get("limit"), 25)));
        int offset = params.containsKey("after") ? decodeCursor(params.get("after")) : 0;
        List<SandboxPost> slice = window.subList(Math.min(offset, window.size()),
                Math.min(offset + limit, window.size()));
        String fields = params.getOrDefault("fields", "id,message,created_time");
        ObjectNode body = Json.object();
        ArrayNode data = body.putArray("data");
        for (SandboxPost post : slice) {
            ObjectNode item = data.addObject();
            item.put("id", post.id());
            if (fields.contains("message") && post.text() != null) {
                item.put("message", post.text());
            }
            if (fields.contains("created_time")) {
                item.put("created_time", CREATED_TIME.format(post.createdAt()));
            }
            if (fields.contains("permalink_url")) {
                item.put("permalink_url", post.url());
            }
            if (fields.contains("attachments") && post.link() != null) {
                item.putObject("attachments").putArray("data").addObject().put("unshimmed_url", post.link());
            } else if (fields.contains("attachments") && !state.attachments(PROVIDER, post.id()).isEmpty()) {
                item.set("attachments", photoAttachments(post));
            }
        }
        if (!slice.isEmpty()) {
            ObjectNode paging = body.putObject("paging");
            ObjectNode cursors = paging.putObject("cursors");
            cursors.put("before", encodeCursor(offset));
            cursors.put("after", encodeCursor(offset + slice.size()));
            if (offset + slice.size() < window.size()) {
                Map<String, String> next = new LinkedHashMap<>(params);
                next.remove("after");
                next.remove("access_token");
                Map<String, String> ordered = new LinkedHashMap<>();
                // Facebook's paging links carry the access token they were called with.
                ordered.put("access_token", token(request, params));
                ordered.putAll(next);
                ordered.put("after", encodeCursor(offset + slice.size()));
                String base = ServletUriComponentsBuilder.fromRequest(request).replaceQuery(null).build().toUriString();
                paging.put("next", base + "?" + Forms.encode(ordered));
            }
        }
        return Replies.json(200, body, usageHeaders(pageId, 0));
    }

    /**
     * {@code POST /{page-id}/photos}: the image as multipart {@code source}, or a {@code url}
     * (recorded, not fetched); form, multipart and JSON bodies alike. {@code published=false}
     * keeps it unpublished, for a post to attach; otherwise it is a photo post at once.
     */
    @PostMapping("/sandbox/facebook/{version}/{pageId}/photos")
    public DeferredResult<ResponseEntity<String>> photo(@PathVariable String pageId, HttpServletRequest request,
                                                       HttpServletResponse response)
            throws IOException, ServletException {
        state.countRequest();
        Map<String, String> params = new LinkedHashMap<>();
        request.getParameterMap().forEach((name, values) -> params.put(name, values[0]));
        byte[] source = null;
        String contentType = request.getContentType() == null ? "" : request.getContentType().toLowerCase();
        if (contentType.startsWith("multipart/")) {
            Part part = request.getPart("source");
            source = part == null ? null : part.getInputStream().readAllBytes();
        } else if (contentType.startsWith("application/json")) {
            Json.parse(new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).fields()
                    .forEachRemaining(field -> params.putIfAbsent(field.getKey(), field.getValue().asText()));
        }
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, pageId, SandboxFault.Operation.UPLOAD);
        if (fault.isPresent()) {
            DeferredResult<ResponseEntity<String>> early = beforeEffect(fault.get(), response);
            if (early != null || fault.get().type() == SandboxFault.Type.RESET_AFTER_READ) {
                return early;
            }
        }
        ResponseEntity<String> refusal = authorise(token(request, params), pageId, true);
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        String url = params.get("url");
        if (source == null && url == null) {
            return Replies.now(state, error(400, 324, null, "(#324) Requires upload file"));
        }
        String type = null;
        SandboxImages.Size size = null;
        if (source != null) {
            type = SandboxImages.type(source).filter(FACEBOOK_FORMATS::contains).orElse(null);
            size = type == null ? null : SandboxImages.size(source, type).orElse(null);
            if (type == null || source.length >= 10 * 1024 * 1024) {
                return Replies.now(state, error(400, 324, null, "(#324) Missing or invalid image file"));
            }
        } else if (!validUrl(url)) {
            return Replies.now(state, error(400, 100, null, "(#100) url should represent a valid URL"));
        }
        boolean published = !"false".equals(params.get("published"));
        String photoId = Long.toString(state.nextId());
        String postId = published ? pageId + "_" + state.nextId() : null;
        Instant now = Instant.now();
        SandboxMedia photo = new SandboxMedia(photoId, pageId, type, source == null ? 0 : source.length,
                source == null ? null : SandboxImages.sha256(source), size == null ? null : size.width(),
                size == null ? null : size.height(), params.get("alt_text_custom"), params.get("caption"), null, null,
                published ? "published" : "unpublished", null, now,
                url != null ? url : "https://scontent.xx.fbcdn.net/v/" + photoId + ".jpg");
        ObjectNode body = Json.object().put("id", photoId);
        if (postId != null) {
            body.put("post_id", postId);
        }
        return Replies.withEffect(state, fault, () -> {
            state.putMedia(PROVIDER, photo);
            if (postId != null) {
                store(new SandboxPost(postId, pageId, params.get("caption"), params.get("caption"), null, null,
                        "published", now, null, "https://www.facebook.com/" + postId),
                        List.of(new SandboxState.Attachment(photoId, photo.altText())));
            }
        }, () -> Replies.json(200, body, usageHeaders(pageId, 0)), this::serviceError);
    }

    /** {@code GET /{object-id}}: a post (with {@code fields}, attachments included), a photo or a comment. */
    @GetMapping("/sandbox/facebook/{version}/{objectId}")
    public DeferredResult<ResponseEntity<String>> object(@PathVariable String objectId,
                                                        @RequestParam Map<String, String> params,
                                                        HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        String pageId = find(objectId).pageId();
        String token = token(request, params);
        return read(pageId, response, () -> {
            ResponseEntity<String> refusal = authorise(token, pageId, false);
            if (refusal != null) {
                return refusal;
            }
            GraphObject object = find(objectId);
            if (object.post() != null) {
                return Replies.json(200, render(object.post(), params.getOrDefault("fields", "id,message,created_time")),
                        usageHeaders(pageId, 0));
            }
            if (object.photo() != null) {
                ObjectNode body = photoNode(object.photo());
                body.put("created_time", CREATED_TIME.format(object.photo().createdAt()));
                return Replies.json(200, body, usageHeaders(pageId, 0));
            }
            if (object.comment() != null) {
                return Replies.json(200, commentNode(object.comment()), usageHeaders(pageId, 0));
            }
            return doesNotExist("get", objectId);
        });
    }

    /** {@code POST /{post-id}}: an edit ({@code message}, {@code is_published=true}), answered {@code {"success":true}}. */
    @PostMapping("/sandbox/facebook/{version}/{objectId}")
    public DeferredResult<ResponseEntity<String>> edit(@PathVariable String objectId,
                                                      @RequestParam Map<String, String> params,
                                                      HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        GraphObject object = find(objectId);
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, object.pageId(), SandboxFault.Operation.EDIT);
        if (fault.isPresent()) {
            DeferredResult<ResponseEntity<String>> early = beforeEffect(fault.get(), response);
            if (early != null || fault.get().type() == SandboxFault.Type.RESET_AFTER_READ) {
                return early;
            }
        }
        ResponseEntity<String> refusal = authorise(token(request, params), object.pageId(), true);
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        if (object.post() == null) {
            return Replies.now(state, doesNotExist("post", objectId));
        }
        String message = params.get("message");
        boolean publish = "true".equals(params.get("is_published"));
        if (message == null && !publish) {
            return Replies.now(state, error(400, 100, null, "(#100) Parameters do not match any fields that can be updated"));
        }
        SandboxPost post = object.post();
        return Replies.withEffect(state, fault, () -> state.updatePost(PROVIDER, post.target(),
                        post.id(), current -> new SandboxPost(current.id(), current.target(),
                                message != null ? message : current.text(), message != null ? message : current.storedText(),
                                current.link(), current.title(), publish ? "published" : current.status(),
                                current.createdAt(), current.publicationMeta(), current.url()))
                        .ifPresent(changed -> state.recordEdit(PROVIDER, changed, Instant.now())),
                () -> Replies.json(200, Json.object().put("success", true), usageHeaders(object.pageId(), 0)),
                this::serviceError);
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
        GraphObject object = find(objectId);
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, object.pageId(), SandboxFault.Operation.DELETE);
        if (fault.isPresent()) {
            DeferredResult<ResponseEntity<String>> early = beforeEffect(fault.get(), response);
            if (early != null || fault.get().type() == SandboxFault.Type.RESET_AFTER_READ) {
                return early;
            }
        }
        ResponseEntity<String> refusal = authorise(token(request, params), object.pageId(), true);
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        Runnable effect;
        if (object.post() != null) {
            SandboxPost post = object.post();
            effect = () -> state.removePost(PROVIDER, post.target(), post.id(), "deleted", Instant.now())
                    .ifPresent(removed -> state.attachments(PROVIDER, removed.id()).forEach(image ->
                            state.updateMedia(PROVIDER, image.mediaId(), m -> m.withStatus(DELETED))));
        } else if (object.comment() != null) {
            effect = () -> state.removeComment(PROVIDER, object.comment());
        } else if (object.photo() != null && object.photo().postId() == null) {
            effect = () -> state.updateMedia(PROVIDER, object.photo().id(), m -> m.withStatus(DELETED));
        } else {
            // unknown, deleted, or a photo inside a post
            return Replies.now(state, doesNotExist("delete", objectId));
        }
        return Replies.withEffect(state, fault, effect,
                () -> Replies.json(200, Json.object().put("success", true), usageHeaders(object.pageId(), 0)),
                this::serviceError);
    }

    /** {@code POST /{post-id}/comments} (a comment) or {@code POST /{comment-id}/comments} (a reply), as the Page. */
    @PostMapping("/sandbox/facebook/{version}/{objectId}/comments")
    public DeferredResult<ResponseEntity<String>> comment(@PathVariable String objectId,
                                                         @RequestParam Map<String, String> params,
                                                         HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        GraphObject object = find(objectId);
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, object.pageId(), SandboxFault.Operation.COMMENT);
        if (fault.isPresent()) {
            DeferredResult<ResponseEntity<String>> early = beforeEffect(fault.get(), response);
            if (early != null || fault.get().type() == SandboxFault.Type.RESET_AFTER_READ) {
                return early;
            }
        }
        ResponseEntity<String> refusal = authorise(token(request, params), object.pageId(), true);
        if (refusal != null) {
            return Replies.now(state, refusal);
        }
        String postId = object.post() != null ? object.post().id()
                : object.comment() != null ? object.comment().postId() : null;
        if (postId == null) {
            return Replies.now(state, doesNotExist("post", objectId));
        }
        String message = params.get("message");
        if (message == null || message.isBlank()) {
            return Replies.now(state, error(400, 100, null, "(#100) Missing message or attachment"));
        }
        String id = postId.substring(postId.indexOf('_') + 1) + "_" + state.nextId();
        SandboxComment comment = new SandboxComment(id, null, postId,
                object.comment() != null ? object.comment().id() : null, object.pageId(), message, Instant.now());
        return Replies.withEffect(state, fault, () -> state.addComment(PROVIDER, comment),
                () -> Replies.json(200, Json.object().put("id", id), usageHeaders(object.pageId(), 0)),
                this::serviceError);
    }

    /** {@code GET /{post-id}/comments}: the top-level comments; {@code GET /{comment-id}/comments}: its replies. */
    @GetMapping("/sandbox/facebook/{version}/{objectId}/comments")
    public DeferredResult<ResponseEntity<String>> comments(@PathVariable String objectId,
                                                          @RequestParam Map<String, String> params,
                                                          HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        String pageId = find(objectId).pageId();
        String token = token(request, params);
        String base = ServletUriComponentsBuilder.fromRequest(request).replaceQuery(null).build().toUriString();
        return read(pageId, response, () -> {
            ResponseEntity<String> refusal = authorise(token, pageId, false);
            return refusal != null ? refusal : commentPage(find(objectId), params, token, base);
        });
    }

    private ResponseEntity<String> commentPage(GraphObject object, Map<String, String> params, String token,
                                               String base) {
        List<SandboxComment> listed;
        if (object.post() != null) {
            listed = state.comments(PROVIDER, object.post().id()).stream().filter(c -> c.parentId() == null).toList();
        } else if (object.comment() != null) {
            listed = state.comments(PROVIDER, object.comment().postId()).stream()
                    .filter(c -> object.comment().id().equals(c.parentId())).toList();
        } else {
            return doesNotExist("get", object.pageId());
        }
        int limit = (int) Math.min(100, Math.max(1, parseLong(params.get("limit"), 25)));
        int offset = params.containsKey("after") ? decodeCursor(params.get("after")) : 0;
        List<SandboxComment> slice = listed.subList(Math.min(offset, listed.size()),
                Math.min(offset + limit, listed.size()));
        ObjectNode body = Json.object();
        ArrayNode data = body.putArray("data");
        slice.forEach(c -> data.add(commentNode(c)));
        if (!slice.isEmpty()) {
            ObjectNode paging = body.putObject("paging");
            ObjectNode cursors = paging.putObject("cursors");
            cursors.put("before", encodeCursor(offset));
            cursors.put("after", encodeCursor(offset + slice.size()));
            if (offset + slice.size() < listed.size()) {
                Map<String, String> next = new LinkedHashMap<>();
                next.put("access_token", token);
                next.put("limit", Integer.toString(limit));
                next.put("after", encodeCursor(offset + slice.size()));
                paging.put("next", base + "?" + Forms.encode(next));
            }
        }
        return Replies.json(200, body, usageHeaders(object.pageId(), 0));
    }

    private static final String DELETED = "deleted";
    private static final List<String> FACEBOOK_FORMATS =
            List.of("image/jpeg", "image/png", "image/gif", "image/bmp", "image/tiff");

    /** What an id names: at most one of post, photo and comment; {@code pageId} is whose it is (or a guess). */
    private record GraphObject(String pageId, SandboxPost post, SandboxMedia photo, SandboxComment comment) {
    }

    private GraphObject find(String id) {
        int underscore = id.indexOf('_');
        if (underscore > 0) {
            Optional<SandboxPost> post = state.post(PROVIDER, id.substring(0, underscore), id);
            if (post.isPresent()) {
                return new GraphObject(post.get().target(), post.get(), null, null);
            }
            Optional<SandboxComment> comment = state.comment(PROVIDER, id);
            if (comment.isPresent()) {
                String postId = comment.get().postId();
                return new GraphObject(postId.substring(0, postId.indexOf('_')), null, null, comment.get());
            }
            return new GraphObject(id.substring(0, underscore), null, null, null);
        }
        // a deleted photo still names its Page, whose token then learns it does not exist
        Optional<SandboxMedia> photo = state.media(PROVIDER, id);
        return photo.map(m -> new GraphObject(m.target(), null, DELETED.equals(m.status()) ? null : m, null))
                .orElseGet(() -> new GraphObject(id, null, null, null));
    }

    private Optional<SandboxMedia> livePhoto(String id) {
        return state.media(PROVIDER, id).filter(m -> !DELETED.equals(m.status()));
    }

    /** A read, answered as a READ fault of the Page says (as on the feed); the answer is built when it is sent. */
    private DeferredResult<ResponseEntity<String>> read(String pageId, HttpServletResponse response,
                                                       java.util.function.Supplier<ResponseEntity<String>> answer) {
        Optional<SandboxFault> fault = state.takeFault(PROVIDER, pageId, SandboxFault.Operation.READ);
        if (fault.isEmpty()) {
            return Replies.now(state, answer.get());
        }
        SandboxFault f = fault.get();
        return switch (f.type()) {
            case RESET_AFTER_READ -> Replies.closeConnection(response);
            case CREATE_AFTER -> Replies.hold(state);
            case DELAY_THEN_CREATE -> Replies.after(state, f.delayMillis(), answer);
            case RATE_LIMIT -> Replies.now(state, rateLimited(f));
            case TOKEN_ERROR -> Replies.now(state, error(400, 190, 463, "Error validating access token: Session has expired."));
            default -> Replies.now(state, serviceError());
        };
    }

    private ObjectNode render(SandboxPost post, String fields) {
        ObjectNode item = Json.object();
        item.put("id", post.id());
        if (fields.contains("message") && post.text() != null) {
            item.put("message", post.text());
        }
        if (fields.contains("created_time")) {
            item.put("created_time", CREATED_TIME.format(post.createdAt()));
        }
        if (fields.contains("permalink_url")) {
            item.put("permalink_url", post.url());
        }
        if (fields.contains("is_published")) {
            item.put("is_published", "published".equals(post.status()));
        }
        List<SandboxState.Attachment> images = state.attachments(PROVIDER, post.id());
        if (fields.contains("full_picture") && !images.isEmpty()) {
            state.media(PROVIDER, images.get(0).mediaId()).ifPresent(m -> item.put("full_picture", m.sourceUrl()));
        }
        if (fields.contains("attachments") && post.link() != null) {
            item.putObject("attachments").putArray("data").addObject().put("unshimmed_url", post.link());
        } else if (fields.contains("attachments") && !images.isEmpty()) {
            item.set("attachments", photoAttachments(post));
        }
        return item;
    }

    /** One photo: {@code type photo} with the photo as target; several: {@code type album} with subattachments in order. */
    private ObjectNode photoAttachments(SandboxPost post) {
        List<SandboxState.Attachment> images = state.attachments(PROVIDER, post.id());
        ObjectNode attachments = Json.object();
        ArrayNode data = attachments.putArray("data");
        if (images.size() == 1) {
            data.add(photoAttachment(images.get(0)));
        } else {
            ObjectNode album = data.addObject();
            album.put("type", "album");
            album.set("media", photoAttachment(images.get(0)).get("media"));
            album.putObject("target").put("id", post.id()).put("url", post.url());
            ArrayNode sub = album.putObject("subattachments").putArray("data");
            images.forEach(image -> sub.add(photoAttachment(image)));
        }
        return attachments;
    }

    private ObjectNode photoAttachment(SandboxState.Attachment image) {
        ObjectNode node = Json.object();
        node.put("type", "photo");
        ObjectNode picture = node.putObject("media").putObject("image");
        Optional<SandboxMedia> photo = state.media(PROVIDER, image.mediaId());
        photo.ifPresent(m -> {
            if (m.height() != null) {
                picture.put("height", m.height()).put("width", m.width());
            }
            picture.put("src", m.sourceUrl());
        });
        node.putObject("target").put("id", image.mediaId())
                .put("url", "https://www.facebook.com/photo.php?fbid=" + image.mediaId());
        if (image.altText() != null) {
            node.put("description", image.altText());
        }
        return node;
    }

    private ObjectNode photoNode(SandboxMedia photo) {
        ObjectNode node = Json.object().put("id", photo.id());
        if (photo.altText() != null) {
            node.put("alt_text_custom", photo.altText());
        }
        if (photo.width() != null) {
            node.put("width", photo.width()).put("height", photo.height());
        }
        return node;
    }

    private static ObjectNode commentNode(SandboxComment comment) {
        ObjectNode node = Json.object();
        node.put("id", comment.id());
        node.put("message", comment.text());
        node.putObject("from").put("name", "Page " + comment.actor()).put("id", comment.actor());
        node.put("created_time", CREATED_TIME.format(comment.createdAt()));
        return node;
    }

    private static boolean validUrl(String url) {
        try {
            java.net.URI uri = new java.net.URI(url);
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null;
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    /** Facebook's answer for an id that names nothing (any more): GraphMethodException 100/33. */
    private static ResponseEntity<String> doesNotExist(String verb, String id) {
        return Replies.json(400, errorBody("GraphMethodException", 100, 33, "Unsupported " + verb
                + " request. Object with ID '" + id + "' does not exist, cannot be loaded due to missing permissions,"
                + " or does not support this operation. Please read the Graph API documentation at"
                + " https://developers.facebook.com/docs/graph-api"), traceHeaders());
    }

    private static String encodeCursor(int offset) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(("o:" + offset).getBytes(StandardCharsets.UTF_8));
    }

    private static int decodeCursor(String cursor) {
        try {
            String decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            return Integer.parseInt(decoded.substring(2));
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private static long parseLong(String value, long fallback) {
        try {
            return value == null ? fallback : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static String token(HttpServletRequest request, Map<String, String> params) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return header.substring(7).trim();
        }
        return params.get("access_token");
    }

    /** Null when the token may act on the Page, else Facebook's refusal. */
    private ResponseEntity<String> authorise(String token, String pageId, boolean write) {
        if (token == null || token.isBlank()) {
            return error(400, 2500, null, "An active access token must be used to query information about the current user.");
        }
        Optional<FacebookToken> known = state.facebookToken(token);
        if (known.isEmpty()) {
            return error(400, 190, null, "Invalid OAuth access token - Cannot parse access token");
        }
        Optional<String> lapsed = state.lapses().lapsed(PROVIDER, token, write);
        if (lapsed.isPresent()) {
            return lapsedToken(lapsed.get());
        }
        if (known.get().kind() == FacebookTokenKind.USER) {
            return error(400, 190, null, "(#190) This method must be called with a Page Access Token");
        }
        if (!pageId.equals(known.get().pageId())) {
            return error(400, write ? 200 : 10, null, write
                    ? "(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission"
                    : "(#10) This endpoint requires the 'pages_read_engagement' permission or the 'Page Public Content Access' feature.");
        }
        return null;
    }

    /** Graph API's answers for a token that no longer works (code 190, PROVIDERS.md's subcodes). */
    private ResponseEntity<String> lapsedToken(String kind) {
        return switch (kind) {
            case "PASSWORD_CHANGED" -> error(400, 190, 460, "Error validating access token: The session has been "
                    + "invalidated because the user changed their password or Facebook has changed the session for "
                    + "security reasons.");
            case "LOGGED_OUT" -> error(400, 190, 467,
                    "Error validating access token: The session is invalid because the user logged out.");
            case "APP_REMOVED", "REVOKED" -> error(400, 190, 458,
                    "Error validating access token: The user has not authorized application 1234567890.");
            default -> error(400, 190, 463, "Error validating access token: Session has expired on Tuesday, "
                    + "01-Dec-26 02:00:00 PST. The current time is Tuesday, 01-Dec-26 03:00:00 PST.");
        };
    }

    private ResponseEntity<String> rateLimited(SandboxFault fault) {
        int code = fault.providerCode() == null ? 32 : fault.providerCode();
        // Only the Page-level limits report estimated_time_to_regain_access in the Page usage header.
        boolean pageLevel = code == 32 || code == 80001;
        long minutes = pageLevel ? (fault.retryAfterSeconds() + 59) / 60 : 0;
        HttpHeaders headers = usageHeaders(fault.target(), minutes);
        headers.set("x-app-usage", "{\"call_count\":100,\"total_time\":40,\"total_cputime\":38}");
        if (code == 4 && fault.retryAfterSeconds() > 0) {
            // The application-level limit has no Page usage header to say when access returns.
            headers.set("Retry-After", Long.toString(fault.retryAfterSeconds()));
        }
        String message = switch (code) {
            case 4 -> "(#4) Application request limit reached";
            case 17 -> "(#17) User request limit reached";
            case 613 -> "(#613) Calls to this api have exceeded the rate limit.";
            case 80001 -> "(#80001) There have been too many calls to this Page account. Wait a bit and try again.";
            default -> "(#32) Page request limit reached";
        };
        return error(code == 4 ? 403 : 400, code, null, message, headers);
    }

    private ResponseEntity<String> serviceError() {
        ObjectNode body = errorBody(2, null, "An unexpected error has occurred. Please retry your request later.");
        ((ObjectNode) body.get("error")).put("is_transient", true);
        return Replies.json(500, body, traceHeaders());
    }

    private ResponseEntity<String> error(int status, int code, Integer subcode, String message) {
        return error(status, code, subcode, message, traceHeaders());
    }

    private ResponseEntity<String> error(int status, int code, Integer subcode, String message, HttpHeaders headers) {
        return Replies.json(status, errorBody(code, subcode, message), headers);
    }

    private static ObjectNode errorBody(int code, Integer subcode, String message) {
        return errorBody("OAuthException", code, subcode, message);
    }

    private static ObjectNode errorBody(String type, int code, Integer subcode, String message) {
        ObjectNode body = Json.object();
        ObjectNode error = body.putObject("error");
        error.put("message", message);
        error.put("type", type);
        error.put("code", code);
        if (subcode != null) {
            error.put("error_subcode", subcode);
        }
        error.put("fbtrace_id", traceId());
        return body;
    }

    private static String traceId() {
        return "A" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    private static HttpHeaders traceHeaders() {
        HttpHeaders headers = new HttpHeaders();
        headers.set("x-fb-trace-id", traceId());
        headers.set("x-fb-rev", "1029384756");
        headers.set("facebook-api-version", "v25.0");
        return headers;
    }

    private HttpHeaders usageHeaders(String pageId, long minutesToRegain) {
        HttpHeaders headers = traceHeaders();
        headers.set("x-app-usage", "{\"call_count\":1,\"total_time\":1,\"total_cputime\":1}");
        headers.set("x-business-use-case-usage", "{\"" + pageId + "\":[{\"type\":\"pages\",\"call_count\":"
                + (minutesToRegain > 0 ? 100 : 1) + ",\"total_cputime\":1,\"total_time\":1,"
                + "\"estimated_time_to_regain_access\":" + minutesToRegain + "}]}");
        return headers;
    }
}
