package io.herald.contracts.publication;

import io.herald.contracts.id.IdempotencyKeys;
import java.util.List;

/**
 * What is published. {@code title}, {@code link} and {@code firstComment} are optional;
 * {@code media} is empty when the post has no images (never null).
 */
public record Content(String title, String body, String link, List<ContentMedia> media, String firstComment) {

    public Content {
        media = media == null ? List.of() : List.copyOf(media);
    }

    /** A text post (with an optional link), as every post was before images and comments. */
    public Content(String title, String body, String link) {
        this(title, body, link, List.of(), null);
    }

    public boolean hasMedia() {
        return !media.isEmpty();
    }

    /**
     * SHA-256 over a canonical form of the content. Length-prefixed fields, so that moving text
     * from one field to another changes the hash. Content without images or a comment keeps the
     * form it always had, so a request sent again before and after an upgrade hashes the same.
     */
    public String hash() {
        boolean textOnly = media.isEmpty() && firstComment == null;
        StringBuilder canonical = new StringBuilder(textOnly ? "content-v1" : "content-v2");
        append(canonical, title);
        append(canonical, body);
        append(canonical, link);
        if (!textOnly) {
            canonical.append('\n').append(media.size());
            for (ContentMedia image : media) {
                append(canonical, image.mediaId().value());
                append(canonical, image.altText());
            }
            append(canonical, firstComment);
        }
        return IdempotencyKeys.sha256Hex(canonical.toString());
    }

    private static void append(StringBuilder canonical, String field) {
        canonical.append('\n');
        if (field == null) {
            canonical.append('-');
        } else {
            canonical.append(field.length()).append(':').append(field);
        }
    }
}
