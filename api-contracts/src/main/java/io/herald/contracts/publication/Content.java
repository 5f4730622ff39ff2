package io.herald.contracts.publication;

import io.herald.contracts.id.IdempotencyKeys;

/** What is published. {@code title} and {@code link} are optional. */
public record Content(String title, String body, String link) {

    /**
     * SHA-256 over a canonical form of the content. Length-prefixed fields, so that moving text
     * from one field to another changes the hash.
     */
    public String hash() {
        StringBuilder canonical = new StringBuilder("content-v1");
        for (String field : new String[] {title, body, link}) {
            canonical.append('\n');
            if (field == null) {
                canonical.append('-');
            } else {
                canonical.append(field.length()).append(':').append(field);
            }
        }
        return IdempotencyKeys.sha256Hex(canonical.toString());
    }
}
