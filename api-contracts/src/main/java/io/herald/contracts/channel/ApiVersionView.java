package io.herald.contracts.channel;

import java.time.Instant;

/**
 * The provider API version a connection speaks, as {@code GET …/channels} shows it.
 *
 * @param sunsetAt when the provider stops serving it; null where unknown or not announced
 */
public record ApiVersionView(String version, Instant sunsetAt, ApiVersionState state) {
}
