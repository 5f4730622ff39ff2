package io.herald.adapters.port;

import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.publication.ContentMedia;
import java.util.List;

/**
 * The rule of providers that change only the text of a published post: an update that names images
 * must name the published post's, in the same order with the same alt texts (one without images
 * keeps them).
 */
public final class TextOnlyEdits {

    private TextOnlyEdits() {
    }

    public static List<FieldViolation> check(String provider, List<ContentMedia> published,
                                             List<ContentMedia> requested) {
        if (published.equals(requested)) {
            return List.of();
        }
        return List.of(new FieldViolation("content.media", provider + " changes only the text of a post: name the"
                + " published images unchanged, or leave media out to keep them"));
    }
}
