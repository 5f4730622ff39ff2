/**
 * Operations on the projections: list the event processors and how far they are, and rebuild a
 * projection from the history.
 */
package io.herald.query.admin;
