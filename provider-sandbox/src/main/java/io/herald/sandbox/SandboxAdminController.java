package io.herald.sandbox;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
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
 * The sandbox's own API, shared by its providers: reset, script faults and lapses, set latency, and
 * read the ground truth (the posts that really exist, whatever any client believes, with their
 * images, comments and edits; the images uploaded; the posts deleted). Each provider's own admin
 * endpoints (its tokens or sites, posts placed directly) are in its package.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class SandboxAdminController {

    public record Latency(long millis) {
    }

    private final SandboxState state;
    private final Map<String, SandboxChannel> channels;

    public SandboxAdminController(SandboxState state, List<SandboxChannel> channels) {
        this.state = state;
        this.channels = channels.stream().collect(Collectors.toUnmodifiableMap(SandboxChannel::type, c -> c));
    }

    @PostMapping("/sandbox/_admin/reset")
    public ResponseEntity<Void> reset() {
        state.reset();
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

    /**
     * The posts that exist where a demo connection ({@link SandboxDemo#definitions}) publishes, as
     * {@code [{id, text}]}, whatever its channel type; 404 for a connection that is not a demo one
     * or whose provider cannot say.
     */
    @GetMapping("/sandbox/_truth/demo/{channelId}")
    public ResponseEntity<String> demo(@PathVariable String channelId) {
        Optional<SandboxDemo.DemoConnection> connection = SandboxDemo.definitions("").stream()
                .filter(c -> c.channelId().equals(channelId)).findFirst();
        SandboxChannel channel = connection.map(c -> channels.get(c.type())).orElse(null);
        if (channel == null) {
            return ResponseEntity.notFound().build();
        }
        ArrayNode list = Json.MAPPER.createArrayNode();
        channel.posts(connection.get().fields()).forEach(post -> list.addObject().put("id", post.id())
                .put("text", post.text()));
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
}
