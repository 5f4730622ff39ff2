package io.herald.contracts.publication;

/** The states of a publication (DESIGN.md, "Publication states"). */
public enum PublicationStatus {
    REQUESTED,
    ATTEMPTING,
    RETRY_SCHEDULED,
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
