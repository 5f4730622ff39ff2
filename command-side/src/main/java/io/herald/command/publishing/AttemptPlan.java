package io.herald.command.publishing;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.time.Instant;

/**
 * Everything needed to run one attempt, as the saga knows it when the attempt is due.
 *
 * @param readBeforeCreate      an earlier attempt may have landed: look for it before writing
 * @param lastAttemptNo         the latest attempt so far (0 if none), for the read-back
 * @param lastAttemptStartedAt  when that attempt started, for the read-back window
 * @param notSentFailures       how many attempts so far provably never left
 * @param rateLimitedFailures   how many attempts so far were refused by a rate limit
 */
public record AttemptPlan(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        PublicationAction action,
        Content content,
        Instant scheduledAt,
        AttemptTrigger trigger,
        boolean readBeforeCreate,
        int lastAttemptNo,
        Instant lastAttemptStartedAt,
        int notSentFailures,
        int rateLimitedFailures) {
}
