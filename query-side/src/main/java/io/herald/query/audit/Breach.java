package io.herald.query.audit;

/**
 * One place where a publication's history breaks a rule of docs/architecture.md#rules-an-auditor-can-check.
 *
 * @param rule     1 to 5, as numbered in docs/architecture.md#rules-an-auditor-can-check; 8: an update applied
 *                 out of order, 9: a step after a delete (see {@code EntryLineCheck})
 * @param sequence the sequence number of the event that breaks it
 * @param detail   what happened, in an auditor's words
 */
public record Breach(String publicationId, int rule, long sequence, String detail) {
}
