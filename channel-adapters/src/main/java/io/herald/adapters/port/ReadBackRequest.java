package io.herald.adapters.port;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationStep;
import java.time.Instant;

/**
 * Look for what an attempt left behind. Facebook and LinkedIn match by normalised text (and link)
 * in the window [{@code attemptStartedAt} − 5 min, now]; WordPress by the meta key. For a first
 * comment ({@code step}), the post's comments ({@code postRef}) are read for the same text. Bluesky
 * reads the record whose key it derived from {@code requestedAt} and {@code scheduledAt}. A post
 * step that publishes what a per-post step prepared is settled by {@code prepared}'s own status.
 */
public record ReadBackRequest(
        PublicationId publicationId,
        int attemptNo,
        PublicationAction action,
        Content content,
        Instant attemptStartedAt,
        ChannelConnection connection,
        PublicationStep step,
        ProviderRef postRef,
        Instant requestedAt,
        Instant scheduledAt,
        ProviderRef prepared) {

    /** A read with the request's times, after nothing prepared for the post. */
    public ReadBackRequest(PublicationId publicationId, int attemptNo, PublicationAction action, Content content,
                           Instant attemptStartedAt, ChannelConnection connection, PublicationStep step,
                           ProviderRef postRef, Instant requestedAt, Instant scheduledAt) {
        this(publicationId, attemptNo, action, content, attemptStartedAt, connection, step, postRef, requestedAt,
                scheduledAt, null);
    }

    /** A read without the request's times (channels that match by content or a stored key). */
    public ReadBackRequest(PublicationId publicationId, int attemptNo, PublicationAction action, Content content,
                           Instant attemptStartedAt, ChannelConnection connection, PublicationStep step,
                           ProviderRef postRef) {
        this(publicationId, attemptNo, action, content, attemptStartedAt, connection, step, postRef, null, null);
    }

    /** A read of what the action's post step may have left. */
    public ReadBackRequest(PublicationId publicationId, int attemptNo, PublicationAction action, Content content,
                           Instant attemptStartedAt, ChannelConnection connection) {
        this(publicationId, attemptNo, action, content, attemptStartedAt, connection, null, null);
    }

    public boolean ofComment() {
        return step != null && step.followsPost();
    }
}
