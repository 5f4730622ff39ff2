package io.herald.adapters.port;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.time.Instant;

/**
 * Look for what an attempt left behind. Facebook and LinkedIn match by normalised text (and link)
 * in the window [{@code attemptStartedAt} − 5 min, now]; WordPress by the meta key.
 */
public record ReadBackRequest(
        PublicationId publicationId,
        int attemptNo,
        PublicationAction action,
        Content content,
        Instant attemptStartedAt,
        ChannelConnection connection) {
}
