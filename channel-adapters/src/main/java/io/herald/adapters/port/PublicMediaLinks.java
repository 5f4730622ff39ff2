package io.herald.adapters.port;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import java.net.URI;

/**
 * Addresses at which a provider that fetches images itself (Instagram, Threads) reads one image of
 * one workspace: under Herald's public address ({@code herald.public-base-url}), with a signed,
 * expiring token that names the workspace, the image and the publication it is for. Herald answers
 * such an address only while that publication is in flight.
 */
public interface PublicMediaLinks {

    /** Whether Herald has a public address: a channel that needs one refuses connections without it. */
    boolean available();

    /**
     * The address of {@code media} for the provider to fetch during {@code publication}'s steps.
     *
     * @throws IllegalStateException when Herald has no public address ({@link #available()} is false)
     */
    URI linkFor(WorkspaceId workspace, MediaId media, PublicationId publication);
}
