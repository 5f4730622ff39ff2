package io.herald.sandbox.facebook;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.ProviderFaults;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxComment;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxMedia;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState.Attachment;
import io.herald.sandbox.SandboxState.FacebookToken;
import io.herald.sandbox.SandboxState.FacebookTokenKind;
import io.herald.sandbox.SandboxState;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * What the Graph API's endpoints share: the Page's faults, tokens and their refusals, what an id
 * names, and how posts, photos and comments are rendered.
 */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class FacebookGraph {

    public static final String PROVIDER = "facebook";
    static final String DELETED = "deleted";
    static final DateTimeFormatter CREATED_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssZ").withZone(ZoneOffset.UTC);

    /** What an id names: at most one of post, photo and comment; {@code pageId} is whose it is (or a guess). */
    record GraphObject(String pageId, SandboxPost post, SandboxMedia photo, SandboxComment comment) {
    }

    private final SandboxState state;
    private final ProviderFaults faults;
    private final FacebookBudgets budgets = new FacebookBudgets();

    FacebookGraph(SandboxState state) {
        this.state = state;
        this.faults = new ProviderFaults(state, PROVIDER, FacebookErrors.FAULTS);
    }

    SandboxState state() {
        return state;
    }

    /** A post's id: the Page's id and a number of the sandbox's. */
    static String postId(String pageId, long id) {
        return pageId + "_" + id;
    }

    static String postUrl(String postId) {
        return "https://www.facebook.com/" + postId;
    }

    ProviderFaults faults() {
        return faults;
    }

    FacebookBudgets budgets() {
        return budgets;
    }

    /**
     * A write about the Page: the fault it takes first, then the Page token's check; then
     * {@code request} answers, given the fault.
     */
    DeferredResult<ResponseEntity<String>> write(String pageId, SandboxFault.Operation operation,
                                                 Map<String, String> params, HttpServletRequest request,
                                                 HttpServletResponse response,
                                                 ProviderFaults.Write<RuntimeException> write) {
        return faults.write(pageId, operation, response, FacebookErrors::expiredOnWrite, fault -> {
            ResponseEntity<String> refusal = authorise(token(request, params), pageId, true);
            return refusal != null ? Replies.now(state, refusal) : write.answer(fault);
        });
    }

    GraphObject find(String id) {
        int underscore = id.indexOf('_');
        if (underscore > 0) {
            Optional<SandboxPost> post = state.posts().find(PROVIDER, id.substring(0, underscore), id);
            if (post.isPresent()) {
                return new GraphObject(post.get().target(), post.get(), null, null);
            }
            Optional<SandboxComment> comment = state.comments().find(PROVIDER, id);
            if (comment.isPresent()) {
                String postId = comment.get().postId();
                return new GraphObject(postId.substring(0, postId.indexOf('_')), null, null, comment.get());
            }
            return new GraphObject(id.substring(0, underscore), null, null, null);
        }
        // a deleted photo still names its Page, whose token then learns it does not exist
        Optional<SandboxMedia> photo = state.media().find(PROVIDER, id);
        return photo.map(m -> new GraphObject(m.target(), null, DELETED.equals(m.status()) ? null : m, null))
                .orElseGet(() -> new GraphObject(id, null, null, null));
    }

    Optional<SandboxMedia> livePhoto(String id) {
        return state.media().find(PROVIDER, id).filter(m -> !DELETED.equals(m.status()));
    }

    /** The post exists from here on, with its photos, which are then part of it. */
    void store(SandboxPost post, List<Attachment> images) {
        state.posts().add(PROVIDER, post);
        state.media().attach(PROVIDER, post.id(), images);
        for (Attachment image : images) {
            state.media().update(PROVIDER, image.mediaId(), m -> m.withPost(post.id()));
        }
    }

    static String token(HttpServletRequest request, Map<String, String> params) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return header.substring(7).trim();
        }
        return params.get("access_token");
    }

    /** Null when the token may act on the Page, else Facebook's refusal. */
    ResponseEntity<String> authorise(String token, String pageId, boolean write) {
        if (token == null || token.isBlank()) {
            return FacebookErrors.error(400, 2500, null,
                    "An active access token must be used to query information about the current user.");
        }
        Optional<FacebookToken> known = state.facebookToken(token);
        if (known.isEmpty()) {
            return FacebookErrors.error(400, 190, null, "Invalid OAuth access token - Cannot parse access token");
        }
        Optional<String> lapsed = state.lapses().lapsed(PROVIDER, token, write);
        if (lapsed.isPresent()) {
            return FacebookErrors.lapsedToken(lapsed.get());
        }
        if (known.get().kind() == FacebookTokenKind.USER) {
            return FacebookErrors.error(400, 190, null, "(#190) This method must be called with a Page Access Token");
        }
        if (!pageId.equals(known.get().pageId())) {
            return FacebookErrors.error(400, write ? 200 : 10, null, write
                    ? "(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission"
                    : "(#10) This endpoint requires the 'pages_read_engagement' permission or the 'Page Public Content Access' feature.");
        }
        return null;
    }

    /**
     * A post with the {@code fields} asked for. {@code single}: as {@code GET /{post-id}} shows it,
     * with {@code is_published} and {@code full_picture}, which the feed does not list.
     */
    ObjectNode render(SandboxPost post, String fields, boolean single) {
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
        if (fields.contains("from")) {
            item.putObject("from").put("name", "Page " + post.target()).put("id", post.target());
        }
        List<Attachment> images = state.media().attachments(PROVIDER, post.id());
        if (single && fields.contains("is_published")) {
            item.put("is_published", "published".equals(post.status()));
        }
        if (single && fields.contains("full_picture") && !images.isEmpty()) {
            state.media().find(PROVIDER, images.get(0).mediaId()).ifPresent(m -> item.put("full_picture", m.sourceUrl()));
        }
        if (fields.contains("attachments") && post.link() != null) {
            item.putObject("attachments").putArray("data").addObject().put("unshimmed_url", post.link());
        } else if (fields.contains("attachments") && !images.isEmpty()) {
            item.set("attachments", photoAttachments(post, images));
        }
        return item;
    }

    /** One photo: {@code type photo} with the photo as target; several: {@code type album} with subattachments in order. */
    private ObjectNode photoAttachments(SandboxPost post, List<Attachment> images) {
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

    private ObjectNode photoAttachment(Attachment image) {
        ObjectNode node = Json.object();
        node.put("type", "photo");
        ObjectNode picture = node.putObject("media").putObject("image");
        state.media().find(PROVIDER, image.mediaId()).ifPresent(m -> {
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

    static ObjectNode photoNode(SandboxMedia photo) {
        ObjectNode node = Json.object().put("id", photo.id());
        if (photo.altText() != null) {
            node.put("alt_text_custom", photo.altText());
        }
        if (photo.width() != null) {
            node.put("width", photo.width()).put("height", photo.height());
        }
        return node;
    }

    static ObjectNode commentNode(SandboxComment comment) {
        ObjectNode node = Json.object();
        node.put("id", comment.id());
        node.put("message", comment.text());
        node.putObject("from").put("name", "Page " + comment.actor()).put("id", comment.actor());
        node.put("created_time", CREATED_TIME.format(comment.createdAt()));
        return node;
    }
}
