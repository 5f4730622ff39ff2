package io.herald.command.entry;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;

/**
 * One operation in an entry's line at a channel, as {@code entry_operation} holds it.
 *
 * @param refUnverified its post was named by an operator and could not be read back
 */
record EntryOperation(long seq, PublicationId publicationId, PublicationAction action, long contentVersion,
                      State state, ProviderRef ref, boolean refUnverified) {

    enum State {
        /** Not settled: later operations wait for it. */
        OPEN,
        /** Succeeded: a publish created {@code ref}; an update or delete acted on it. */
        DONE,
        /** Settled without effect: failed for good, not executed, abandoned or superseded. */
        NOT_EXECUTED
    }

    boolean is(State s) {
        return state == s;
    }
}
