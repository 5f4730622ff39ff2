package io.herald.adapters.port;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.UploadedMedia;
import java.time.Instant;
import java.util.List;

/**
 * One attempt at creating a post. The publication id is the idempotency key; WordPress stores it
 * in the post's meta so a read-back can find the post by it.
 *
 * @param uploads the images whose uploads are recorded, in the content's order: the post attaches these
 */
public record PublishRequest(
        PublicationId publicationId,
        int attemptNo,
        PublicationAction action,
        Content content,
        Instant scheduledAt,
        ChannelConnection connection,
        List<UploadedMedia> uploads) {

    public PublishRequest {
        uploads = uploads == null ? List.of() : List.copyOf(uploads);
    }

    /** A post without images. */
    public PublishRequest(PublicationId publicationId, int attemptNo, PublicationAction action, Content content,
                          Instant scheduledAt, ChannelConnection connection) {
        this(publicationId, attemptNo, action, content, scheduledAt, connection, List.of());
    }
}
