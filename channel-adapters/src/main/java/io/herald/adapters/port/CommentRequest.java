package io.herald.adapters.port;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.ProviderRef;

/** One attempt at the first comment under a post Herald created. Once only: a second comment is visible. */
public record CommentRequest(
        PublicationId publicationId,
        int attemptNo,
        ProviderRef post,
        String text,
        ChannelConnection connection) {
}
