package io.herald.adapters.port;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.time.Instant;

/**
 * One attempt at creating a post. The publication id is the idempotency key; WordPress stores it
 * in the post's meta so a read-back can find the post by it.
 */
public record PublishRequest(
        PublicationId publicationId,
        int attemptNo,
        PublicationAction action,
        Content content,
        Instant scheduledAt,
        ChannelConnection connection) {
}
