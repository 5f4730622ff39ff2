package io.herald.adapters.port;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UploadedMedia;
import java.time.Instant;
import java.util.List;

/**
 * One attempt at creating a post. The publication id is the idempotency key; WordPress stores it
 * in the post's meta so a read-back can find the post by it.
 *
 * @param uploads     the images whose uploads are recorded, in the content's order: the post attaches these;
 *                    after a per-post step, the one entry without an image that holds what it prepared
 *                    ({@link #prepared()})
 * @param requestedAt when the publication was requested (recorded, so the same on every attempt): a
 *                    channel whose client names the post (Bluesky's record key) derives the name from it
 */
public record PublishRequest(
        PublicationId publicationId,
        int attemptNo,
        PublicationAction action,
        Content content,
        Instant scheduledAt,
        ChannelConnection connection,
        List<UploadedMedia> uploads,
        Instant requestedAt) {

    public PublishRequest {
        uploads = uploads == null ? List.of() : List.copyOf(uploads);
    }

    /**
     * What a per-post step prepared for this post (a container to publish), as recorded before this
     * attempt started; null when the channel prepares nothing once per post.
     */
    public ProviderRef prepared() {
        return uploads.stream().filter(u -> u.mediaId() == null).map(UploadedMedia::providerRef).findFirst()
                .orElse(null);
    }

    /** A post with images, without the request's time. */
    public PublishRequest(PublicationId publicationId, int attemptNo, PublicationAction action, Content content,
                          Instant scheduledAt, ChannelConnection connection, List<UploadedMedia> uploads) {
        this(publicationId, attemptNo, action, content, scheduledAt, connection, uploads, null);
    }

    /** A post without images. */
    public PublishRequest(PublicationId publicationId, int attemptNo, PublicationAction action, Content content,
                          Instant scheduledAt, ChannelConnection connection) {
        this(publicationId, attemptNo, action, content, scheduledAt, connection, List.of(), null);
    }
}
