package io.herald.contracts.publication;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;

/**
 * What to look for at the provider, as the publication knows it: the post attempt {@code attemptNo}
 * may have left, sent no earlier than {@code attemptStartedAt}. The same read serves reconciliation
 * after an unknown outcome and the read before a re-attempt. For {@code update} and {@code delete},
 * {@code target} is the post whose state is read.
 */
public record ReadBackLicence(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        int attemptNo,
        PublicationAction action,
        Content content,
        Instant attemptStartedAt,
        ProviderRef target) {

    public ReadBackLicence(PublicationId publicationId, WorkspaceId workspaceId, ChannelId channelId, int attemptNo,
                           PublicationAction action, Content content, Instant attemptStartedAt) {
        this(publicationId, workspaceId, channelId, attemptNo, action, content, attemptStartedAt, null);
    }
}
