package io.herald.contracts.publication;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/** The connection was re-authorised: the held publication's next attempt ({@code attemptNo}) is due. */
@Revision("1")
public record PublicationReleasedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        int attemptNo,
        Instant releasedAt) {
}
