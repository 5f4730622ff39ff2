package io.herald.contracts.publication;

import java.util.List;

/** A page of publications; {@code nextCursor} is null on the last page. */
public record PublicationPage(List<PublicationView> items, String nextCursor) {
}
