package io.herald.adapters.port;

import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ProviderRef;

/** Read the post {@code target}; {@code wanted} is the content an update should have left (null for a delete). */
public record PostReadRequest(ProviderRef target, Content wanted, ChannelConnection connection) {
}
