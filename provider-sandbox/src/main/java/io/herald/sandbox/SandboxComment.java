package io.herald.sandbox;

import java.time.Instant;

/**
 * A comment under a post, or a reply under a comment ({@code parentId} set).
 *
 * @param id     the provider's id (Facebook {@code <post-local-id>_<comment-id>}, LinkedIn the comment's number)
 * @param urn    LinkedIn's {@code urn:li:comment:(…)}, else null
 * @param actor  who wrote it (the Page, the member or organization)
 */
public record SandboxComment(String id, String urn, String postId, String parentId, String actor, String text,
                             Instant createdAt) {
}
