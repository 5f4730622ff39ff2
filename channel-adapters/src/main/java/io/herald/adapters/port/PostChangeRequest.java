package io.herald.adapters.port;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;

/**
 * One attempt at changing ({@code update}) or removing ({@code delete}) the entry's post
 * {@code target}. Both converge: sent twice, they leave the same post.
 */
public record PostChangeRequest(
        PublicationId publicationId,
        int attemptNo,
        PublicationAction action,
        Content content,
        ProviderRef target,
        ChannelConnection connection) {
}
