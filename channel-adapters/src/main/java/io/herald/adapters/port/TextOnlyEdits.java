package io.herald.adapters.port;

import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.publication.ContentMedia;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The rule of providers that change only the text of a published post: an update that names images
 * must name the published post's, in the same order with the same alt texts (one without images
 * keeps them).
 */
public final class TextOnlyEdits {

    private TextOnlyEdits() {
    }

    public static List<FieldViolation> check(String provider, Supplier<Optional<List<ContentMedia>>> published,
                                             List<ContentMedia> requested) {
        // no post to change is answered as nothing_to_change by intake
        if (published.get().map(requested::equals).orElse(true)) {
            return List.of();
        }
        return List.of(new FieldViolation("content.media", provider + " changes only the text of a post: name the"
                + " published images unchanged, or leave media out to keep them"));
    }
}
