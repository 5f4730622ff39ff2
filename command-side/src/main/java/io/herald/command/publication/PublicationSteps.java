package io.herald.command.publication;

import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.StepRole;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.UploadedMedia;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The publication's steps besides its post, as {@link PublicationStep#plan} planned them: which
 * uploads (steps before the post) are recorded as succeeded (the post uses only those), how often
 * one's outcome was unknown (a repeatable step is sent again, within the retry policy), and where
 * the step that follows the post (the first comment) stands. State only, changed by the
 * aggregate's event-sourcing handlers; the aggregate decides.
 */
final class PublicationSteps {

    /** Where the step after the post stands; {@code NOT_WANTED} when none is planned. */
    enum CommentState {
        NOT_WANTED, PENDING, IN_FLIGHT, RETRY_SCHEDULED, SUCCEEDED, FAILED, OUTCOME_UNKNOWN, NOT_EXECUTED, SKIPPED
    }

    private List<ContentMedia> media = List.of();
    /** The kinds planned before the post (for each image), of the post, and after it (or null). */
    private PublicationStep preparing;
    private PublicationStep post;
    private PublicationStep followUp;
    private final Map<MediaId, ProviderRef> uploaded = new HashMap<>();
    /** What a per-post step prepared (a container), recorded before the post step is attempted; or null. */
    private ProviderRef prepared;
    private int uploadUnknowns;
    private ProviderRef postRef;
    private CommentState comment = CommentState.NOT_WANTED;
    /** Some comment attempt ended unknown, so a comment may exist: read before commenting again. */
    private boolean commentMayHaveLanded;
    private ReconciliationSource commentNotFoundSource;

    void plan(PublicationAction action, Content content, List<PublicationStep> kinds) {
        List<PublicationStep.Planned> plan = PublicationStep.plan(action, content, kinds);
        media = plan.stream().anyMatch(p -> p.kind().preparesPost() && p.mediaId() != null) ? content.media()
                : List.of();
        preparing = kindOf(plan, StepRole.PREPARES_POST);
        post = kindOf(plan, StepRole.MAKES_POST);
        followUp = kindOf(plan, StepRole.FOLLOWS_POST);
        comment = followUp != null ? CommentState.PENDING : CommentState.NOT_WANTED;
    }

    private static PublicationStep kindOf(List<PublicationStep.Planned> plan, StepRole role) {
        return plan.stream().map(PublicationStep.Planned::kind).filter(k -> k.role() == role).findFirst().orElse(null);
    }

    /**
     * Before the post: the step for the next image without a recorded upload, or the per-post step
     * while nothing it prepared is on record; else the post's own step.
     */
    PublicationStep nextTowardsPost() {
        if (preparing != null && preparing.preparesOncePerPost()) {
            return prepared == null ? preparing : post;
        }
        return nextUpload() != null ? preparing : post;
    }

    /** What the per-post step prepared, on record; null when nothing (or nothing usable) is. */
    ProviderRef prepared() {
        return prepared;
    }

    /** The kind of the step planned after the post, or null when none is. */
    PublicationStep followUp() {
        return followUp;
    }

    /** The first image without a recorded upload, in the content's order; null when all are uploaded. */
    ContentMedia nextUpload() {
        for (ContentMedia image : media) {
            if (!uploaded.containsKey(image.mediaId())) {
                return image;
            }
        }
        return null;
    }

    /**
     * What the post attaches: the recorded uploads, in the content's order; after a per-post step,
     * the one entry without an image that holds what it prepared.
     */
    List<UploadedMedia> uploads() {
        if (prepared != null) {
            return List.of(new UploadedMedia(null, null, prepared));
        }
        List<UploadedMedia> result = new ArrayList<>(media.size());
        for (ContentMedia image : media) {
            ProviderRef ref = uploaded.get(image.mediaId());
            if (ref != null) {
                result.add(new UploadedMedia(image.mediaId(), image.altText(), ref));
            }
        }
        return result;
    }

    int uploadUnknowns() {
        return uploadUnknowns;
    }

    ProviderRef postRef() {
        return postRef;
    }

    CommentState comment() {
        return comment;
    }

    /** The post exists and its comment was never tried: it is due now. */
    boolean commentDueAfterPost() {
        return comment == CommentState.PENDING;
    }

    /** Whether a comment attempt may start now, for this trigger. */
    boolean commentStartable(AttemptTrigger trigger, boolean autoReattemptAllowed) {
        return switch (comment) {
            case PENDING, RETRY_SCHEDULED -> true;
            case NOT_EXECUTED -> trigger == AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND
                    && commentNotFoundSource == ReconciliationSource.AUTOMATIC && autoReattemptAllowed;
            default -> false;
        };
    }

    boolean commentMayHaveLanded() {
        return commentMayHaveLanded;
    }

    /** The comment waits for an operator (the post itself is settled). */
    boolean commentNeedsDecision() {
        return comment == CommentState.FAILED || comment == CommentState.OUTCOME_UNKNOWN
                || comment == CommentState.NOT_EXECUTED;
    }

    /** A step before the post succeeded: the upload of {@code mediaId}, or (null) the per-post step. */
    void uploadSucceeded(MediaId mediaId, ProviderRef ref) {
        if (mediaId == null) {
            prepared = ref;
        } else {
            uploaded.put(mediaId, ref);
        }
    }

    /** What was prepared is no longer usable (expired, or the post step failed for good): prepare again. */
    void forgetPrepared() {
        prepared = null;
    }

    void uploadUnknown() {
        uploadUnknowns++;
    }

    void postExists(ProviderRef ref) {
        if (ref != null) {
            postRef = ref;
        }
    }

    void commentAttempted() {
        comment = CommentState.IN_FLIGHT;
    }

    void commentDue() {
        comment = CommentState.PENDING;
    }

    void commentSucceeded() {
        comment = CommentState.SUCCEEDED;
    }

    void commentFailed(boolean retried) {
        comment = retried ? CommentState.RETRY_SCHEDULED : CommentState.FAILED;
    }

    void commentUnknown() {
        comment = CommentState.OUTCOME_UNKNOWN;
        commentMayHaveLanded = true;
    }

    void commentReconciled(ReconciliationResult result, ReconciliationSource source) {
        switch (result) {
            case FOUND -> comment = CommentState.SUCCEEDED;
            case NOT_FOUND -> {
                comment = CommentState.NOT_EXECUTED;
                commentNotFoundSource = source;
            }
            case UNKNOWN -> comment = CommentState.OUTCOME_UNKNOWN;
        }
    }

    void commentSkipped() {
        comment = CommentState.SKIPPED;
    }
}
