package io.herald.reconciliation;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.time.Instant;

/**
 * One read-back of one attempt.
 *
 * @param readNo 1 for the first read after the unknown outcome, counting up
 */
public record ReadBackPlan(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        PublicationAction action,
        Content content,
        int attemptNo,
        Instant attemptStartedAt,
        int readNo) {
}
