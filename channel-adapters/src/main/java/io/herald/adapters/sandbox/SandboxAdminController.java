package io.herald.adapters.sandbox;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Json;
import io.herald.adapters.sandbox.SandboxState.FacebookToken;
import io.herald.adapters.sandbox.SandboxState.LinkedInToken;
import io.herald.adapters.sandbox.SandboxState.WordPressSite;
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
 * read the ground truth (the posts that really exist, whatever any client believes).
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

    @PostMapping("/sandbox/_admin/faults")
    public ResponseEntity<Void> fault(@RequestBody SandboxFault fault) {
        state.addFault(fault);
        return ResponseEntity.noContent().build();
    }

    @DeleteMapping("/sandbox/_admin/faults")
    public ResponseEntity<Void> clearFaults() {
        state.clearFaults();
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
            case FacebookSandboxController.PROVIDER -> new SandboxPost(target + "_" + n, target, seeded.text(),
                    seeded.text(), seeded.link(), null, seeded.status() == null ? "published" : seeded.status(),
                    created, null, "https://www.facebook.com/" + target + "_" + n);
            case LinkedInSandboxController.PROVIDER -> new SandboxPost("urn:li:share:" + (7_100_000_000_000_000_000L + n),
                    target, seeded.text(), escape(seeded.text()), null, null, "PUBLISHED", created, null,
                    "https://www.linkedin.com/feed/update/urn:li:share:" + (7_100_000_000_000_000_000L + n) + "/");
            case WordPressSandboxController.PROVIDER -> new SandboxPost(Long.toString(n), target, seeded.text(),
                    seeded.text(), null, "", seeded.status() == null ? "publish" : seeded.status(), created,
                    seeded.publicationMeta(), "/?p=" + n);
            default -> null;
        };
        if (post == null) {
            return ResponseEntity.notFound().build();
        }
        state.addPost(provider, post);
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.write(Json.object().put("id", post.id())));
    }

    @GetMapping("/sandbox/_truth/{provider}/{target}")
    public ResponseEntity<String> truth(@PathVariable String provider, @PathVariable String target) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        for (SandboxPost post : state.posts(provider, target)) {
            ObjectNode node = list.addObject();
            node.put("id", post.id());
            node.put("text", post.text());
            node.put("storedText", post.storedText());
            node.put("link", post.link());
            node.put("title", post.title());
            node.put("status", post.status());
            node.put("createdAt", post.createdAt().toString());
            node.put("publicationMeta", post.publicationMeta());
            node.put("url", post.url());
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.write(list));
    }

    @GetMapping("/sandbox/_admin/stats")
    public ResponseEntity<String> stats() {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                .body(Json.write(Json.object().put("requests", state.requestCount())
                        .put("latencyMillis", state.latencyMillis())
                        .put("mostPendingAnswers", state.mostPendingAnswers())));
    }

    private static String escape(String text) {
        return io.herald.adapters.linkedin.LittleText.escape(text);
    }
}
