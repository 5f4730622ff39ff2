package io.herald.sandbox.wordpress;

import io.herald.sandbox.SandboxChannel;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState;
import io.herald.sandbox.SeededPost;
import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The simulated WordPress sites' own admin endpoints under {@code /sandbox/_admin/wordpress}: sites
 * with their application password (and whether Herald's plug-in is installed), and posts placed
 * directly on a site.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class WordPressAdminController implements SandboxChannel {

    public record SiteRegistration(String site, String username, String applicationPassword, boolean plugin) {
    }

    private final SandboxState state;

    WordPressAdminController(SandboxState state) {
        this.state = state;
    }

    @PostMapping("/sandbox/_admin/wordpress/sites")
    public ResponseEntity<Void> site(@RequestBody SiteRegistration registration) {
        state.register(new SandboxState.WordPressSite(registration.site(), registration.username(),
                registration.applicationPassword(), registration.plugin()));
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/sandbox/_admin/wordpress/{site}/posts")
    public ResponseEntity<String> seed(@PathVariable String site, @RequestBody SeededPost seeded) {
        long n = state.nextId();
        return SeededPost.place(state, WordPressRest.PROVIDER, new SandboxPost(Long.toString(n), site, seeded.text(),
                seeded.text(), null, "", seeded.statusOr("publish"), seeded.createdAtOrNow(),
                seeded.publicationMeta(), "/?p=" + n));
    }

    @Override
    public String type() {
        return WordPressRest.PROVIDER;
    }

    /** The site is the last segment of the connection's {@code siteUrl} ({@code …/sandbox/wordpress/{site}}). */
    @Override
    public List<Post> posts(Map<String, Object> connection) {
        String siteUrl = ((String) connection.get("siteUrl")).replaceAll("/+$", "");
        String site = siteUrl.substring(siteUrl.lastIndexOf('/') + 1);
        return state.posts().of(WordPressRest.PROVIDER, site).stream()
                .map(post -> new Post(post.id(), post.text())).toList();
    }
}
