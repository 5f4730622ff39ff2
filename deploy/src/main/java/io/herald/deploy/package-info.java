/**
 * The runnable Herald application. Only assembly lives here: Spring Boot wiring, Axon's
 * persistence on PostgreSQL, the embedded database of the default run, HTTP cross-cutting concerns
 * (problem+json, correlation ids, body limits) and the database migrations of the Axon tables.
 */
package io.herald.deploy;
