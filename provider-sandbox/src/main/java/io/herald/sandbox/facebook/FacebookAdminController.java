package io.herald.sandbox.facebook;

import io.herald.sandbox.SandboxChannel;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState;
import io.herald.sandbox.SeededPost;
import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import java.time.Instant;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The simulated Graph API's own admin endpoints under {@code /sandbox/_admin/facebook}: Page and
 * user tokens, posts placed directly on a Page, and posts removed from it as a moderator or the
 * Page's owner would, behind the publisher's back.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class FacebookAdminController implements SandboxChannel {

    public record TokenRegistration(String token, String pageId, SandboxState.FacebookTokenKind kind) {
    }

    private final SandboxState state;
    private final FacebookGraph graph;

    FacebookAdminController(SandboxState state, FacebookGraph graph) {
        this.state = state;
        this.graph = graph;
    }

    /**
     * The Page's call budget: {@code calls} posts per window of {@code windowSeconds}, of which other
     * apps use {@code otherAppsPercent}; answers report the share used in {@code x-app-usage}, and a
     * post past it is refused (code 4, {@code Retry-After}). {@code calls} 0 removes the budget.
     */
    @PutMapping("/sandbox/_admin/facebook/{page}/budget")
    public ResponseEntity<Void> budget(@PathVariable String page, @RequestBody FacebookBudgets.Budget budget) {
        graph.budgets().set(page, budget);
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/sandbox/_admin/facebook/tokens")
    public ResponseEntity<Void> token(@RequestBody TokenRegistration registration) {
        state.register(new SandboxState.FacebookToken(registration.token(), registration.pageId(),
                registration.kind() == null ? SandboxState.FacebookTokenKind.PAGE : registration.kind()));
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/sandbox/_admin/facebook/{page}/posts")
    public ResponseEntity<String> seed(@PathVariable String page, @RequestBody SeededPost seeded) {
        String id = FacebookGraph.postId(page, state.nextId());
        return SeededPost.place(state, FacebookGraph.PROVIDER, new SandboxPost(id, page, seeded.text(), seeded.text(),
                seeded.link(), null, seeded.statusOr("published"), seeded.createdAtOrNow(), null,
                FacebookGraph.postUrl(id)));
    }

    /**
     * Removes a post from the Page as someone other than Herald would (a moderator, the Page's
     * owner): reading it then answers that it does not exist. 204, or 404 for no such post.
     */
    @DeleteMapping("/sandbox/_admin/facebook/{page}/posts/{postId}")
    public ResponseEntity<Void> remove(@PathVariable String page, @PathVariable String postId) {
        return state.posts().remove(FacebookGraph.PROVIDER, page, postId, "removed at the provider", Instant.now())
                .map(removed -> ResponseEntity.noContent().<Void>build())
                .orElse(ResponseEntity.notFound().build());
    }

    @Override
    public String type() {
        return FacebookGraph.PROVIDER;
    }

    @Override
    public List<Post> posts(Map<String, Object> connection) {
        return state.posts().of(FacebookGraph.PROVIDER, (String) connection.get("pageId")).stream()
                .map(post -> new Post(post.id(), post.text())).toList();
    }
}
