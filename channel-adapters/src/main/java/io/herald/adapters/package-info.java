/**
 * Channel adapters: one per provider (Facebook Pages, LinkedIn, WordPress), each speaking the
 * provider's real wire format, classifying every answer as succeeded / failed / outcome unknown,
 * reading back past attempts and probing what a connection's credentials allow. The
 * {@code sandbox} package simulates the providers, faults included, for tests and the demo run.
 * The command side and reconciliation see only the {@code port} package.
 */
package io.herald.adapters;
