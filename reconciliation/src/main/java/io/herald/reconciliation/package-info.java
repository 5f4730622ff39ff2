/**
 * Reconciliation: after an unknown outcome Herald never writes on its own; it reads back at the
 * provider after a settle delay, repeats the read on a bounded schedule while the answer is
 * inconclusive, and records what it found. Where the connection cannot read back, the first read
 * says so and the case goes to an operator. The schedule runs on the publication's timer row, which
 * the publishing core fires into {@link io.herald.reconciliation.ReadBackProcess} (its read-back
 * port); the read is the same one that precedes a re-attempt. The verification after success
 * ({@link io.herald.reconciliation.VerificationProcess}) reads a post that succeeded again later, on
 * the same timer rows, to see it is still there.
 */
package io.herald.reconciliation;
