package io.herald.query.publication;

import io.herald.contracts.publication.PublicationView;

/**
 * Told of every change the publication view projection applies, inside the projection's unit of
 * work and transaction: what a listener writes commits, or rolls back, with the view row and the
 * processor's token. An event applied before (a redelivery) is not told again.
 */
public interface PublicationTransitionListener {

    /**
     * @param before   the view before the event
     * @param after    the view as of the event
     * @param sequence the event's sequence number in the publication's stream
     */
    void transitioned(PublicationView before, PublicationView after, long sequence);

    /** Before the view is rebuilt from the history: a listener that keeps tables of its own empties them here. */
    default void reset() {
    }
}
