/**
 * Reconciliation: after an unknown outcome Herald never writes on its own; it reads back at the
 * provider after a settle delay, repeats the read on a bounded schedule while the answer is
 * inconclusive, and records what it found. Where the connection cannot read back, the first read
 * says so and the case goes to an operator.
 */
package io.herald.reconciliation;
