package io.herald.query.publication;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;

/**
 * Where a page of publications ends: the sort key (requested_at, publication id) of its last row.
 * Clients see it only as an opaque base64url string.
 */
public record PublicationCursor(Instant requestedAt, String publicationId) {

    private static final char SEPARATOR = '\n';

    public String encode() {
        String plain = requestedAt.toString() + SEPARATOR + publicationId;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @throws IllegalArgumentException when the text is not a cursor this class wrote
     */
    public static PublicationCursor decode(String cursor) {
        try {
            String plain = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            int split = plain.indexOf(SEPARATOR);
            if (split <= 0 || split == plain.length() - 1) {
                throw new IllegalArgumentException("not a publication cursor");
            }
            return new PublicationCursor(Instant.parse(plain.substring(0, split)), plain.substring(split + 1));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not a publication cursor", e);
        }
    }
}
