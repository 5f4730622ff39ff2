package io.herald.query.publication;

import java.time.Instant;

/**
 * The list's filters beyond those of {@code FindPublicationsQuery}; a null one does not apply.
 *
 * @param held  true: only HELD publications; false: none of them
 * @param from  requested at or after
 * @param to    requested before
 * @param text  a publication id, or a calendar entry id or the start of one
 */
public record PublicationSearch(Boolean held, Instant from, Instant to, String text) {

    public static final PublicationSearch NONE = new PublicationSearch(null, null, null, null);

    /** The status a held publication has (by name: the list filters on the stored column). */
    static final String HELD = "HELD";
}
