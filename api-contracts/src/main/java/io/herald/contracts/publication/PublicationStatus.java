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
    ABANDONED;

    public boolean isTerminal() {
        return this == SUCCEEDED || this == ABANDONED;
    }
}
