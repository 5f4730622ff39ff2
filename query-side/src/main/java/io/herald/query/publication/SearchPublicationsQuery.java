package io.herald.query.publication;

import io.herald.contracts.publication.FindPublicationsQuery;

/** The publication list with the console's further filters. */
public record SearchPublicationsQuery(FindPublicationsQuery list, PublicationSearch search) {
}
