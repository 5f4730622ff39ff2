package io.herald.query.audit;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One place where a publication's history breaks a rule of docs/architecture.md#rules-an-auditor-can-check, or where the store no
 * longer matches the audit chain.
 *
 * @param publicationId the stream (a publication, or for a chain break any aggregate) it is in
 * @param rule          1 to 5, as numbered in docs/architecture.md#rules-an-auditor-can-check; 8: an update
 *                      applied out of order, 9: a step after a delete (see {@code EntryLineCheck});
 *                      {@value #CHAIN_BREAK}: a chain break (an event changed, removed or moved after
 *                      it was chained)
 * @param sequence      the sequence number of the event that breaks it
 * @param detail        what happened, in an auditor's words
 */
public record Breach(String publicationId, int rule, long sequence, String detail) {

    public static final int CHAIN_BREAK = 10;

    /** {@code chain} for a chain break, {@code rule} for the others. */
    @JsonProperty("kind")
    public String kind() {
        return rule == CHAIN_BREAK ? "chain" : "rule";
    }
}
