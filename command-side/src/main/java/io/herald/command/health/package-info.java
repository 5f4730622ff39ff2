/**
 * Connection health (docs/architecture.md#connection-health): expired or revoked credentials turn a connection NEEDS_REAUTH,
 * its due publications are HELD before any call, and a passing probe resumes them.
 */
package io.herald.command.health;
