package io.herald.sandbox;

import java.time.Instant;

/**
 * A post that really exists in the sandbox: the ground truth tests compare an adapter's belief to.
 *
 * @param text            what readers see (LinkedIn: after the little-text escapes are applied)
 * @param storedText      what the provider stores and returns (LinkedIn: the escaped commentary)
 * @param publicationMeta WordPress: the stored herald_publication_id, null when not kept
 */
public record SandboxPost(
        String id,
        String target,
        String text,
        String storedText,
        String link,
        String title,
        String status,
        Instant createdAt,
        String publicationMeta,
        String url) {

    /** The same post, created {@code millis} later (as a post the provider creates after the request). */
    public SandboxPost createdLater(long millis) {
        return new SandboxPost(id, target, text, storedText, link, title, status, createdAt.plusMillis(millis),
                publicationMeta, url);
    }

    public SandboxPost withStatus(String newStatus) {
        return new SandboxPost(id, target, text, storedText, link, title, newStatus, createdAt, publicationMeta, url);
    }
}
