package io.herald.adapters.port;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.net.URI;
import java.time.Instant;
import java.util.List;

/**
 * One attempt at preparing a post once for the whole post (a container the provider builds and a
 * later step publishes). Repeatable: what is prepared and never published is invisible to the
 * audience, so an unknown one is simply prepared again. The provider fetches each image itself,
 * from its public address.
 *
 * @param images the content's images in its order, each with the address the provider reads it at
 */
public record PrepareRequest(
        PublicationId publicationId,
        int attemptNo,
        PublicationAction action,
        Content content,
        List<Image> images,
        ChannelConnection connection,
        Instant requestedAt) {

    public PrepareRequest {
        images = images == null ? List.of() : List.copyOf(images);
    }

    /**
     * One image of the post, as the provider reads it.
     *
     * @param publicUrl   where the provider fetches it (signed, expiring)
     * @param contentType the type the address serves, e.g. {@code image/jpeg}
     * @param altText     its description, or null
     * @param storedType  its type as uploaded: another than {@code contentType} where the address
     *                    serves a JPEG made of it for a provider that takes JPEG only
     */
    public record Image(MediaId mediaId, URI publicUrl, String contentType, String altText, String storedType) {

        public Image(MediaId mediaId, URI publicUrl, String contentType, String altText) {
            this(mediaId, publicUrl, contentType, altText, contentType);
        }

        /** The address serves a JPEG made of another type of image. */
        public boolean converted() {
            return !contentType.equals(storedType);
        }
    }
}
