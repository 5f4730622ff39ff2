package io.herald.sandbox.linkedin;

import io.herald.sandbox.SandboxChannel;
import io.herald.sandbox.SandboxPost;
import io.herald.sandbox.SandboxState;
import io.herald.sandbox.SeededPost;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The simulated LinkedIn API's own admin endpoints under {@code /sandbox/_admin/linkedin}: member
 * and organization tokens with their scopes, and posts placed directly for an author.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class LinkedInAdminController implements SandboxChannel {

    public record TokenRegistration(String token, String author, List<String> scopes) {
    }

    private final SandboxState state;

    LinkedInAdminController(SandboxState state) {
        this.state = state;
    }

    @PostMapping("/sandbox/_admin/linkedin/tokens")
    public ResponseEntity<Void> token(@RequestBody TokenRegistration registration) {
        state.register(new SandboxState.LinkedInToken(registration.token(), registration.author(),
                Set.copyOf(registration.scopes() == null ? List.of() : registration.scopes())));
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/sandbox/_admin/linkedin/{author}/posts")
    public ResponseEntity<String> seed(@PathVariable String author, @RequestBody SeededPost seeded) {
        String urn = LinkedInRest.shareUrn(state.nextId());
        return SeededPost.place(state, LinkedInRest.PROVIDER, new SandboxPost(urn, author, seeded.text(),
                escape(seeded.text()), null, null, "PUBLISHED", seeded.createdAtOrNow(), null,
                LinkedInRest.postUrl(urn)));
    }

    @Override
    public String type() {
        return LinkedInRest.PROVIDER;
    }

    @Override
    public List<Post> posts(Map<String, Object> connection) {
        return state.posts().of(LinkedInRest.PROVIDER, (String) connection.get("authorUrn")).stream()
                .map(post -> new Post(post.id(), post.text())).toList();
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
