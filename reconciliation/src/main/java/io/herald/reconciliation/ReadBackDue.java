package io.herald.reconciliation;

/** Payload of the "read back now" deadline. */
public record ReadBackDue(int attemptNo) {

    static final String NAME = "publication-read-back-due";
}
