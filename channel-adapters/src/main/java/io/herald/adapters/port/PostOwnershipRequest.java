package io.herald.adapters.port;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.ProviderRef;

/**
 * Read the post {@code named} (its id, or a URL to take the id from) and say whether it is the
 * connection's. {@code publicationId} is the publication it is named for: a WordPress post carrying
 * it in Herald's meta key is the publication's own, whoever its author.
 */
public record PostOwnershipRequest(ProviderRef named, PublicationId publicationId, ChannelConnection connection) {
}
