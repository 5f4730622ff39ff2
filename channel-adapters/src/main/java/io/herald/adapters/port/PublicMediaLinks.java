package io.herald.adapters.port;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import java.net.URI;

/**
 * Addresses at which a provider that fetches images itself (Instagram, Threads) reads one image of
 * one workspace: under Herald's public address ({@code herald.public-base-url}), with a signed,
 * expiring token that names the workspace, the image and the publication it is for. Herald answers
 * such an address only while that publication is in flight (the image's bytes with their content
 * type); an address whose publication has finished, whose token expired
 * ({@code herald.media.public-link-ttl}) or was changed in any way answers 404.
 *
 * <p>A step asks for the address when it sends the request that makes the provider fetch the image
 * (e.g. creating a container); an address is never stored in an event.
 */
public interface PublicMediaLinks {

    /** Whether Herald has a public address: a channel that needs one refuses connections without it. */
    boolean available();

    /**
     * The address of {@code media} as uploaded (JPEG, PNG, GIF or WebP) for the provider to fetch
     * during {@code publication}'s steps.
     *
     * @throws IllegalStateException when Herald has no public address ({@link #available()} is false)
     */
    URI linkFor(WorkspaceId workspace, MediaId media, PublicationId publication);

    /**
     * As {@link #linkFor}, for a provider that takes JPEG only (Instagram): the address answers
     * {@code image/jpeg}, a JPEG image as uploaded, a PNG, GIF (its first frame) or WebP converted
     * to a JPEG of the same size (transparent pixels on white). The conversion is bounded like the
     * check of an upload ({@code herald.media.max-side}, the node's decode slots); when no slot is
     * free the address answers 503 with {@code Retry-After}, and the provider fetches again.
     *
     * @throws IllegalStateException         when Herald has no public address ({@link #available()} is false)
     * @throws UnsupportedOperationException from an implementation that serves no renditions (Herald's does)
     */
    default URI jpegLinkFor(WorkspaceId workspace, MediaId media, PublicationId publication) {
        throw new UnsupportedOperationException("these links serve images as uploaded only");
    }
}
