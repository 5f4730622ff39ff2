/**
 * What the query endpoints share: reading and checking query parameters, and waiting for the
 * query bus's answer. Refusals are thrown as {@code HeraldRejection}; the application maps them to
 * problem+json.
 */
package io.herald.query.web;
