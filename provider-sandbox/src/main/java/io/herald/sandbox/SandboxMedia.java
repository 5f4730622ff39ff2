package io.herald.sandbox;

import java.time.Instant;

/**
 * An image a provider holds: a Facebook photo, a LinkedIn image or a WordPress attachment.
 *
 * @param id          the provider's id (photo id, {@code urn:li:image:…}, attachment id)
 * @param target      the Page, owner or site it belongs to
 * @param contentType what the bytes are (null while a LinkedIn image waits for its upload)
 * @param sha256      hex SHA-256 of the bytes received (null when none were)
 * @param status      Facebook {@code unpublished|published}; LinkedIn {@code WAITING_UPLOAD|AVAILABLE|PROCESSING_FAILED};
 *                    WordPress {@code inherit}
 * @param postId      the post it is part of (Facebook, once attached), else null
 * @param sourceUrl   where the provider serves it (Facebook: the {@code url} it was given to fetch)
 */
public record SandboxMedia(
        String id,
        String target,
        String contentType,
        long bytes,
        String sha256,
        Integer width,
        Integer height,
        String altText,
        String caption,
        String title,
        String fileName,
        String status,
        String postId,
        Instant createdAt,
        String sourceUrl) {

    public SandboxMedia withStatus(String newStatus) {
        return new SandboxMedia(id, target, contentType, bytes, sha256, width, height, altText, caption, title,
                fileName, newStatus, postId, createdAt, sourceUrl);
    }

    public SandboxMedia withPost(String post) {
        return new SandboxMedia(id, target, contentType, bytes, sha256, width, height, altText, caption, title,
                fileName, status, post, createdAt, sourceUrl);
    }

    public SandboxMedia withBytes(String type, long count, String hash, Integer w, Integer h, String newStatus) {
        return new SandboxMedia(id, target, type, count, hash, w, h, altText, caption, title, fileName, newStatus,
                postId, createdAt, sourceUrl);
    }

    public SandboxMedia withTexts(String alt, String newCaption, String newTitle) {
        return new SandboxMedia(id, target, contentType, bytes, sha256, width, height, alt, newCaption, newTitle,
                fileName, status, postId, createdAt, sourceUrl);
    }
}
