package io.herald.contracts.publication;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import java.time.Instant;
import java.util.List;

/**
 * What {@link StartAttemptCommand}'s sender may do. Only {@link Verdict#START} licenses a provider
 * call, for {@code attemptNo}, with {@code action} and {@code content}.
 *
 * @param readFirst  for {@link Verdict#READ_FIRST}: what to look for before anything is written
 * @param notBefore  for {@link Verdict#WAIT}: when the attempt may be asked for again
 * @param refusal    for {@link Verdict#REFUSED}: a stable code (an error code, or {@code stale_trigger})
 * @param target     for {@code update} and {@code delete}: the entry's post the call acts on
 * @param step       the provider write licensed; null where the action's post step is meant
 * @param mediaId    for {@code upload_media}: the image to upload
 * @param uploads    for the post: the recorded uploads it attaches, in the content's order
 * @param postRef    for {@code first_comment}: the post the comment goes under
 * @param requestedAt when the publication was requested: with {@code scheduledAt}, recorded data a
 *                    channel may derive a post's own identity from, the same on every attempt
 */
public record AttemptDecision(
        Verdict verdict,
        PublicationId publicationId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        ChannelType channelType,
        int attemptNo,
        AttemptTrigger trigger,
        PublicationAction action,
        Content content,
        Instant scheduledAt,
        ReadBackLicence readFirst,
        Instant notBefore,
        String refusal,
        String detail,
        ProviderRef target,
        PublicationStep step,
        MediaId mediaId,
        List<UploadedMedia> uploads,
        ProviderRef postRef,
        Instant requestedAt) {

    public AttemptDecision {
        uploads = uploads == null ? List.of() : List.copyOf(uploads);
    }

    /** A decision without the request's time. */
    public AttemptDecision(Verdict verdict, PublicationId publicationId, WorkspaceId workspaceId, ChannelId channelId,
                           ChannelType channelType, int attemptNo, AttemptTrigger trigger, PublicationAction action,
                           Content content, Instant scheduledAt, ReadBackLicence readFirst, Instant notBefore,
                           String refusal, String detail, ProviderRef target, PublicationStep step, MediaId mediaId,
                           List<UploadedMedia> uploads, ProviderRef postRef) {
        this(verdict, publicationId, workspaceId, channelId, channelType, attemptNo, trigger, action, content,
                scheduledAt, readFirst, notBefore, refusal, detail, target, step, mediaId, uploads, postRef, null);
    }

    /** A decision about the action's post step, with no uploads. */
    public AttemptDecision(Verdict verdict, PublicationId publicationId, WorkspaceId workspaceId, ChannelId channelId,
                           ChannelType channelType, int attemptNo, AttemptTrigger trigger, PublicationAction action,
                           Content content, Instant scheduledAt, ReadBackLicence readFirst, Instant notBefore,
                           String refusal, String detail) {
        this(verdict, publicationId, workspaceId, channelId, channelType, attemptNo, trigger, action, content,
                scheduledAt, readFirst, notBefore, refusal, detail, null, null, null, List.of(), null);
    }

    /** A decision about an update or delete: the action's post step on the entry's post. */
    public AttemptDecision(Verdict verdict, PublicationId publicationId, WorkspaceId workspaceId, ChannelId channelId,
                           ChannelType channelType, int attemptNo, AttemptTrigger trigger, PublicationAction action,
                           Content content, Instant scheduledAt, ReadBackLicence readFirst, Instant notBefore,
                           String refusal, String detail, ProviderRef target) {
        this(verdict, publicationId, workspaceId, channelId, channelType, attemptNo, trigger, action, content,
                scheduledAt, readFirst, notBefore, refusal, detail, target, null, null, List.of(), null);
    }

    /** A decision about one step of a publish: an upload, the post with its uploads, or the first comment. */
    public AttemptDecision(Verdict verdict, PublicationId publicationId, WorkspaceId workspaceId, ChannelId channelId,
                           ChannelType channelType, int attemptNo, AttemptTrigger trigger, PublicationAction action,
                           Content content, Instant scheduledAt, ReadBackLicence readFirst, Instant notBefore,
                           String refusal, String detail, PublicationStep step, MediaId mediaId,
                           List<UploadedMedia> uploads, ProviderRef postRef) {
        this(verdict, publicationId, workspaceId, channelId, channelType, attemptNo, trigger, action, content,
                scheduledAt, readFirst, notBefore, refusal, detail, null, step, mediaId, uploads, postRef);
    }

    /** The step licensed, the action's post step where none is named. */
    public PublicationStep stepOrPost() {
        return PublicationStep.orPostStep(step, action);
    }

    public enum Verdict {
        /** The attempt is on record: call the provider. */
        START,
        /** An earlier attempt may have landed: read back first, then ask again (rule 3). */
        READ_FIRST,
        /** Not yet (a schedule or the connection's rate limit): ask again at {@code notBefore}. */
        WAIT,
        /** Nothing to do; the reason is in {@code refusal}. */
        REFUSED
    }

    public static AttemptDecision refused(PublicationId publicationId, String refusal, String detail) {
        return new AttemptDecision(Verdict.REFUSED, publicationId, null, null, null, 0, null, null, null, null, null,
                null, refusal, detail);
    }

    public boolean started() {
        return verdict == Verdict.START;
    }
}
