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
 * @param target  for {@code update} and {@code delete}: the post whose state is read
 * @param step    what the attempt wrote; null where the action's post step is meant
 * @param postRef for {@code first_comment}: the post whose comments are read
 * @param requestedAt when the publication was requested, and {@code scheduledAt} when it was due:
 *                    recorded data a channel may derive a post's own identity from
 * @param prepared    for a post step after a per-post step ({@link StepScope#PER_POST}): what that
 *                    step prepared (a container), whose own status settles whether it was published
 */
public record ReadBackLicence(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        int attemptNo,
        PublicationAction action,
        Content content,
        Instant attemptStartedAt,
        ProviderRef target,
        PublicationStep step,
        ProviderRef postRef,
        Instant requestedAt,
        Instant scheduledAt,
        ProviderRef prepared) {

    /** A licence without anything prepared for the post. */
    public ReadBackLicence(PublicationId publicationId, WorkspaceId workspaceId, ChannelId channelId, int attemptNo,
                           PublicationAction action, Content content, Instant attemptStartedAt, ProviderRef target,
                           PublicationStep step, ProviderRef postRef, Instant requestedAt, Instant scheduledAt) {
        this(publicationId, workspaceId, channelId, attemptNo, action, content, attemptStartedAt, target, step,
                postRef, requestedAt, scheduledAt, null);
    }

    /** A licence without the request's times. */
    public ReadBackLicence(PublicationId publicationId, WorkspaceId workspaceId, ChannelId channelId, int attemptNo,
                           PublicationAction action, Content content, Instant attemptStartedAt, ProviderRef target,
                           PublicationStep step, ProviderRef postRef) {
        this(publicationId, workspaceId, channelId, attemptNo, action, content, attemptStartedAt, target, step,
                postRef, null, null);
    }

    /** A read of what the action's post step may have left. */
    public ReadBackLicence(PublicationId publicationId, WorkspaceId workspaceId, ChannelId channelId, int attemptNo,
                           PublicationAction action, Content content, Instant attemptStartedAt) {
        this(publicationId, workspaceId, channelId, attemptNo, action, content, attemptStartedAt, null, null, null);
    }

    /** A read of the entry's post that an update or delete acts on. */
    public ReadBackLicence(PublicationId publicationId, WorkspaceId workspaceId, ChannelId channelId, int attemptNo,
                           PublicationAction action, Content content, Instant attemptStartedAt, ProviderRef target) {
        this(publicationId, workspaceId, channelId, attemptNo, action, content, attemptStartedAt, target, null, null);
    }

    /** A read of what one step of a publish may have left (the first comment under {@code postRef}). */
    public ReadBackLicence(PublicationId publicationId, WorkspaceId workspaceId, ChannelId channelId, int attemptNo,
                           PublicationAction action, Content content, Instant attemptStartedAt,
                           PublicationStep step, ProviderRef postRef) {
        this(publicationId, workspaceId, channelId, attemptNo, action, content, attemptStartedAt, null, step, postRef);
    }

    public PublicationStep stepOrPost() {
        return PublicationStep.orPostStep(step, action);
    }
}
