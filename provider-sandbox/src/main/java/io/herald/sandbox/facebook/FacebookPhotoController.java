package io.herald.sandbox.facebook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxImages;
import io.herald.sandbox.SandboxMedia;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState.Attachment;
import io.herald.sandbox.SandboxState;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/** The Graph API's photo upload, {@code POST /sandbox/facebook/{version}/{page-id}/photos}. */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class FacebookPhotoController {

    private static final String PROVIDER = FacebookGraph.PROVIDER;
    private static final List<String> FACEBOOK_FORMATS =
            List.of("image/jpeg", "image/png", "image/gif", "image/bmp", "image/tiff");

    private final SandboxState state;
    private final FacebookGraph graph;

    FacebookPhotoController(FacebookGraph graph) {
        this.state = graph.state();
        this.graph = graph;
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
        byte[] bytes = source;
        return graph.write(pageId, SandboxFault.Operation.UPLOAD, params, request, response,
                fault -> photo(pageId, params, bytes, fault));
    }

    private DeferredResult<ResponseEntity<String>> photo(String pageId, Map<String, String> params, byte[] source,
                                                        Optional<SandboxFault> fault) {
        String url = params.get("url");
        if (source == null && url == null) {
            return Replies.now(state, FacebookErrors.error(400, 324, null, "(#324) Requires upload file"));
        }
        String type = null;
        SandboxImages.Size size = null;
        if (source != null) {
            type = SandboxImages.type(source).filter(FACEBOOK_FORMATS::contains).orElse(null);
            size = type == null ? null : SandboxImages.size(source, type).orElse(null);
            if (type == null || source.length >= 10 * 1024 * 1024) {
                return Replies.now(state, FacebookErrors.error(400, 324, null, "(#324) Missing or invalid image file"));
            }
        } else if (!validUrl(url)) {
            return Replies.now(state, FacebookErrors.error(400, 100, null, "(#100) url should represent a valid URL"));
        }
        boolean published = !"false".equals(params.get("published"));
        String photoId = Long.toString(state.nextId());
        String postId = published ? FacebookGraph.postId(pageId, state.nextId()) : null;
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
        return graph.faults().withEffect(fault, () -> {
            state.media().put(PROVIDER, photo);
            if (postId != null) {
                graph.store(new SandboxPost(postId, pageId, params.get("caption"), params.get("caption"), null, null,
                                "published", now, null, FacebookGraph.postUrl(postId)),
                        List.of(new Attachment(photoId, photo.altText())));
            }
        }, () -> FacebookErrors.ok(body, pageId));
    }

    private static boolean validUrl(String url) {
        try {
            URI uri = new URI(url);
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
