/**
 * Herald's read side: projections built from the event history into tables designed for the
 * screens that read them, the Axon query handlers that answer from those tables, and the REST
 * endpoints in front of them. Depends on api-contracts only; nothing here ever writes an event.
 */
package io.herald.query;
