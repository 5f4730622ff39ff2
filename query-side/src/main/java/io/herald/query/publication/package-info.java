/**
 * The publication view: one row per publication with its status, every attempt's trace and every
 * reconciliation, kept by {@link io.herald.query.publication.PublicationViewProjection} (processing
 * group {@code publication-view}) and read by the publication detail and list endpoints.
 */
package io.herald.query.publication;
