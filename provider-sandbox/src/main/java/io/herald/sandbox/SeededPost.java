package io.herald.sandbox;

import io.herald.platform.wire.Json;
import java.time.Instant;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * A post placed directly through a provider's admin endpoint (e.g. one "posted by hand", or many
 * for paging); each provider fills in what it would have stored.
 */
public record SeededPost(String text, String link, Instant createdAt, String status, String publicationMeta) {

    public Instant createdAtOrNow() {
        return createdAt == null ? Instant.now() : createdAt;
    }

    public String statusOr(String otherwise) {
        return status == null ? otherwise : status;
    }

    /** Stores the post a provider made of a seeded one and answers its id ({@code {"id"}}). */
    public static ResponseEntity<String> place(SandboxState state, String provider, SandboxPost post) {
        state.posts().add(provider, post);
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                .body(Json.write(Json.object().put("id", post.id())));
    }
}
