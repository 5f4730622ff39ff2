/**
 * The console's overview: publications per hour by outcome, open decision cases over time and the
 * providers' answer times, kept in hour buckets beside the publication view and read in a fixed
 * number of queries per page view.
 */
package io.herald.query.stats;
