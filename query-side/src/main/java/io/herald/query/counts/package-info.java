/**
 * Counts of a workspace's publications per status and per channel, for the console's overview;
 * kept with the publication view's rows, in the same transactions, so they agree with the list.
 */
package io.herald.query.counts;
