package io.herald.contracts.publication;

/** The states of a publication (docs/architecture.md#publication-states). */
public enum PublicationStatus {
    REQUESTED,
    ATTEMPTING,
    RETRY_SCHEDULED,
    /** The connection lost its credentials; nothing was sent. Resumes when they work again. */
    HELD,
    SUCCEEDED,
    FAILED,
    OUTCOME_UNKNOWN,
    NOT_EXECUTED,
    /** An update older than one already applied to the entry's post: never sent. Terminal. */
    SUPERSEDED,
    ABANDONED;

    public boolean isTerminal() {
        return this == SUCCEEDED || this == ABANDONED || this == SUPERSEDED;
    }
}
