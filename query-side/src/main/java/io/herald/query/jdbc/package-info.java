/**
 * What every read table shares: how jsonb columns and timestamps cross JDBC. Kept in one place so
 * that the stored form does not drift between projections.
 */
package io.herald.query.jdbc;
