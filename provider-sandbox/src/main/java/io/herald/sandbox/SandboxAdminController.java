package io.herald.sandbox;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxState.FacebookToken;
import io.herald.sandbox.SandboxState.LinkedInToken;
import io.herald.sandbox.SandboxState.WordPressSite;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The sandbox's own API: register tokens and sites, script faults, set latency, seed posts, and
 * read the ground truth (the posts that really exist, whatever any client believes, with their
 * images, comments and edits; the images uploaded; the posts deleted).
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class SandboxAdminController {

    public record FacebookTokenRegistration(String token, String pageId, SandboxState.FacebookTokenKind kind) {
    }

    public record LinkedInTokenRegistration(String token, String author, List<String> scopes) {
    }

    public record WordPressSiteRegistration(String site, String username, String applicationPassword, boolean plugin) {
    }

    public record Latency(long millis) {
    }

    /** A post placed directly (e.g. one "posted by hand", or many for paging). */
    public record SeededPost(String text, String link, Instant createdAt, String status, String publicationMeta) {
    }

    private final SandboxState state;

    public SandboxAdminController(SandboxState state) {
        this.state = state;
    }

    @PostMapping("/sandbox/_admin/reset")
    public ResponseEntity<Void> reset() {
        state.reset();
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/sandbox/_admin/facebook/tokens")
    public ResponseEntity<Void> facebookToken(@RequestBody FacebookTokenRegistration registration) {
        state.register(new FacebookToken(registration.token(), registration.pageId(),
                registration.kind() == null ? SandboxState.FacebookTokenKind.PAGE : registration.kind()));
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/sandbox/_admin/linkedin/tokens")
    public ResponseEntity<Void> linkedInToken(@RequestBody LinkedInTokenRegistration registration) {
        state.register(new LinkedInToken(registration.token(), registration.author(),
                Set.copyOf(registration.scopes() == null ? List.of() : registration.scopes())));
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/sandbox/_admin/wordpress/sites")
    public ResponseEntity<Void> wordPressSite(@RequestBody WordPressSiteRegistration registration) {
        state.register(new WordPressSite(registration.site(), registration.username(),
                registration.applicationPassword(), registration.plugin()));
        return ResponseEntity.noContent().build();
    }

    /** The credential stops working after {@code afterPosts} more posts, answered as the provider would. */
    @PostMapping("/sandbox/_admin/lapses")
    public ResponseEntity<Void> lapse(@RequestBody TokenLapses.Lapse lapse) {
        state.lapse(lapse);
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/sandbox/_admin/faults")
    public ResponseEntity<Void> fault(@RequestBody SandboxFault fault) {
        state.faults().add(fault);
        return ResponseEntity.noContent().build();
    }

    @DeleteMapping("/sandbox/_admin/faults")
    public ResponseEntity<Void> clearFaults() {
        state.faults().clear();
        return ResponseEntity.noContent().build();
    }

    @PutMapping("/sandbox/_admin/latency")
    public ResponseEntity<Void> latency(@RequestBody Latency latency) {
        state.setLatencyMillis(latency.millis());
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/sandbox/_admin/{provider}/{target}/posts")
    public ResponseEntity<String> seed(@PathVariable String provider, @PathVariable String target,
                                       @RequestBody SeededPost seeded) {
        long n = state.nextId();
        Instant created = seeded.createdAt() == null ? Instant.now() : seeded.createdAt();
        SandboxPost post = switch (provider) {
            case FacebookSandboxController.PROVIDER -> new SandboxPost(FacebookGraph.postId(target, n), target,
                    seeded.text(), seeded.text(), seeded.link(), null,
                    seeded.status() == null ? "published" : seeded.status(), created, null,
                    FacebookGraph.postUrl(FacebookGraph.postId(target, n)));
            case LinkedInSandboxController.PROVIDER -> new SandboxPost(LinkedInRest.shareUrn(n),
                    target, seeded.text(), escape(seeded.text()), null, null, "PUBLISHED", created, null,
                    LinkedInRest.postUrl(LinkedInRest.shareUrn(n)));
            case WordPressSandboxController.PROVIDER -> new SandboxPost(Long.toString(n), target, seeded.text(),
                    seeded.text(), null, "", seeded.status() == null ? "publish" : seeded.status(), created,
                    seeded.publicationMeta(), "/?p=" + n);
            default -> null;
        };
        if (post == null) {
            return ResponseEntity.notFound().build();
        }
        state.posts().add(provider, post);
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.write(Json.object().put("id", post.id())));
    }

    /**
     * The posts that exist at the target, oldest first. A post's images ({@code media}, in order,
     * with alt texts), WordPress's {@code featuredMedia}, its {@code comments} and its accepted
     * {@code edits} appear on the posts that have them.
     */
    @GetMapping("/sandbox/_truth/{provider}/{target}")
    public ResponseEntity<String> truth(@PathVariable String provider, @PathVariable String target) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        for (SandboxPost post : state.posts().of(provider, target)) {
            list.add(postNode(provider, post));
        }
        return json(list);
    }

    /** The images uploaded at the target (photos, LinkedIn images, attachments), in upload order. */
    @GetMapping("/sandbox/_truth/{provider}/{target}/media")
    public ResponseEntity<String> media(@PathVariable String provider, @PathVariable String target) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        for (SandboxMedia image : state.media().of(provider, target)) {
            ObjectNode node = list.addObject();
            node.put("id", image.id());
            node.put("contentType", image.contentType());
            node.put("bytes", image.bytes());
            node.put("sha256", image.sha256());
            node.put("width", image.width());
            node.put("height", image.height());
            node.put("altText", image.altText());
            node.put("caption", image.caption());
            node.put("title", image.title());
            node.put("fileName", image.fileName());
            node.put("status", image.status());
            node.put("postId", image.postId());
            node.put("createdAt", image.createdAt().toString());
            node.put("url", image.sourceUrl());
        }
        return json(list);
    }

    /**
     * Posts deleted at the target, as they were before: {@code how} is {@code deleted}
     * (Facebook, LinkedIn), {@code trash} or {@code force} (WordPress).
     */
    @GetMapping("/sandbox/_truth/{provider}/{target}/deleted")
    public ResponseEntity<String> deleted(@PathVariable String provider, @PathVariable String target) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        for (SandboxState.Deletion deletion : state.posts().deletions(provider, target)) {
            ObjectNode node = postNode(provider, deletion.post());
            node.put("deletedAt", deletion.at().toString());
            node.put("how", deletion.how());
            list.add(node);
        }
        return json(list);
    }

    private ObjectNode postNode(String provider, SandboxPost post) {
        ObjectNode node = Json.object();
        node.put("id", post.id());
        node.put("text", post.text());
        node.put("storedText", post.storedText());
        node.put("link", post.link());
        node.put("title", post.title());
        node.put("status", post.status());
        node.put("createdAt", post.createdAt().toString());
        node.put("publicationMeta", post.publicationMeta());
        node.put("url", post.url());
        List<SandboxState.Attachment> images = state.media().attachments(provider, post.id());
        if (!images.isEmpty()) {
            ArrayNode media = node.putArray("media");
            images.forEach(image -> media.addObject().put("id", image.mediaId()).put("altText", image.altText()));
        }
        state.media().featured(provider, post.id()).ifPresent(mediaId -> node.put("featuredMedia", mediaId));
        List<SandboxComment> comments = state.comments().of(provider, post.id());
        if (!comments.isEmpty()) {
            ArrayNode list = node.putArray("comments");
            comments.forEach(c -> list.addObject().put("id", c.id()).put("urn", c.urn()).put("parentId", c.parentId())
                    .put("actor", c.actor()).put("text", c.text()).put("createdAt", c.createdAt().toString()));
        }
        List<SandboxState.Edit> edits = state.posts().edits(provider, post.id());
        if (!edits.isEmpty()) {
            ArrayNode list = node.putArray("edits");
            edits.forEach(e -> list.addObject().put("at", e.at().toString()).put("text", e.text())
                    .put("storedText", e.storedText()).put("title", e.title()).put("status", e.status()));
        }
        return node;
    }

    private static ResponseEntity<String> json(ArrayNode list) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.write(list));
    }

    @GetMapping("/sandbox/_admin/stats")
    public ResponseEntity<String> stats() {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                .body(Json.write(Json.object().put("requests", state.requestCount())
                        .put("latencyMillis", state.latencyMillis())
                        .put("mostPendingAnswers", state.mostPendingAnswers())));
    }

    /**
     * LinkedIn's "little text" escaping, written here again on purpose: the simulator follows
     * LinkedIn's rules, not the adapter's code, so a bug in the adapter cannot hide in both.
     */
    private static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        text.chars().forEach(c -> {
            if (LITTLE_TEXT_RESERVED.indexOf(c) >= 0) {
                out.append('\\');
            }
            out.append((char) c);
        });
        return out.toString();
    }

    private static final String LITTLE_TEXT_RESERVED = "\\|{}@[]()<>#*_~";
}
