/**
 * Counts of a workspace's publications per status and per channel, for the console's overview;
 * counted from the publication view, so they agree with the list.
 */
package io.herald.query.counts;
