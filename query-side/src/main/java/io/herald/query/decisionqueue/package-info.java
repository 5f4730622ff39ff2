/**
 * The operator's decision queue: publications Herald cannot settle alone (final failure, read-back
 * found nothing, read-back could not tell), oldest first, read from the publication view.
 */
package io.herald.query.decisionqueue;
