/**
 * Channel adapters: one plug-in package per channel type, named after its wire name (Facebook
 * Pages, LinkedIn, WordPress, Bluesky, Mastodon, Instagram and Threads today; the registry,
 * {@code port.ChannelPlugins}, is the list), each speaking the provider's real wire format,
 * classifying every answer as succeeded / failed / outcome unknown, reading back past attempts and
 * probing what a connection's credentials allow. The {@code provider-sandbox} module simulates the
 * providers, faults included, for tests and the demo run. The command side and reconciliation see
 * only the {@code port} package.
 */
package io.herald.adapters;
