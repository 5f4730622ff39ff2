package io.herald.contracts.publication;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;

/**
 * What to look for at the provider, as the publication knows it: the post attempt {@code attemptNo}
 * may have left, sent no earlier than {@code attemptStartedAt}. The same read serves reconciliation
 * after an unknown outcome and the read before a re-attempt.
 *
 * @param step    what the attempt wrote; null where the action's post step is meant
 * @param postRef for {@code first_comment}: the post whose comments are read
 */
public record ReadBackLicence(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        int attemptNo,
        PublicationAction action,
        Content content,
        Instant attemptStartedAt,
        PublicationStep step,
        ProviderRef postRef) {

    /** A read of what the action's post step may have left. */
    public ReadBackLicence(PublicationId publicationId, WorkspaceId workspaceId, ChannelId channelId, int attemptNo,
                           PublicationAction action, Content content, Instant attemptStartedAt) {
        this(publicationId, workspaceId, channelId, attemptNo, action, content, attemptStartedAt, null, null);
    }

    public PublicationStep stepOrPost() {
        return PublicationStep.orPostStep(step, action);
    }
}
