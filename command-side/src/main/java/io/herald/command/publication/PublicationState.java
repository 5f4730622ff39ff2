package io.herald.command.publication;

import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationHeldEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationNothingToChangeEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationReleasedEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationResendDueEvent;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationStepSkippedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.PublicationSupersededEvent;
import io.herald.contracts.publication.PublicationTargetedEvent;
import io.herald.contracts.publication.PublicationVanishDecidedEvent;
import io.herald.contracts.publication.PublicationVanishedEvent;
import io.herald.contracts.publication.PublicationVerificationDueEvent;
import io.herald.contracts.publication.PublicationVerifiedEvent;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.ReconciliationSource;
import java.time.Instant;
import org.axonframework.eventsourcing.EventSourcingHandler;

/**
 * Every fact a publication's events established that a later decision reads. A member of the
 * {@link Publication} aggregate, so Axon calls these handlers for each event the aggregate
 * applies or loads (after the aggregate's own). Handlers assign fields, nothing else: the
 * aggregate and its policies decide, reading this state.
 */
final class PublicationState {

    /** The request as its event recorded it: what, where and when to publish; fixed from then on. */
    private PublicationRequestedEvent request;
    private PublicationStatus status;
    private int lastAttemptNo;
    private Instant lastAttemptStartedAt;
    private Instant lastAttemptExpiresAt;
    /** Some attempt ended with an unknown outcome, so its post may exist at the provider. */
    private boolean earlierAttemptMayHaveLanded;
    private ReconciliationSource lastNotFoundSource;
    private int notSentFailures;
    private int rateLimitedFailures;
    /** NOT_READY polls of the container on record: a new container starts its budget again. */
    private int notReadyFailures;
    /** For update and delete: the entry's post acted on, fixed when the operation takes its turn. */
    private ProviderRef targetRef;
    /** For update and delete: how often a read-back showed the change missing and it was sent again. */
    private int convergingResends;
    /** The step of the latest attempt, and its image for an upload. */
    private PublicationStep lastStep;
    private MediaId lastMediaId;
    /** The step the latest {@code NextStepDue} made due and no attempt has taken up yet, or null. */
    private PublicationStep dueStep;
    /** The latest attempt has no recorded result yet (its step may be an upload or the comment). */
    private boolean inFlight;
    /** The post stands on an operator's word alone: it was named and could not be read back. */
    private boolean postUnverified;
    private final PublicationSteps steps = new PublicationSteps();
    /** The record id or key the latest attempt carried. */
    private String lastIdempotencyKey;
    /** The chain of same-key re-sends the latest attempt belongs to: when its first attempt was sent, how many followed. */
    private Instant resendChainStartedAt;
    private int sameKeyResends;
    /** A same-key re-send of the latest (unknown) attempt is due, and until when it may start (null: no bound). */
    private boolean sameKeyResendDue;
    private Instant sameKeyResendUntil;
    /** The attempt whose success a verification is open for (its post is read again), or 0. */
    private int verificationOf;
    /** When a verification after success found the post gone, and whether an operator decided about it since. */
    private Instant vanishedAt;
    private boolean vanishDecided;

    PublicationRequestedEvent request() {
        return request;
    }

    PublicationStatus status() {
        return status;
    }

    int lastAttemptNo() {
        return lastAttemptNo;
    }

    Instant lastAttemptExpiresAt() {
        return lastAttemptExpiresAt;
    }

    boolean earlierAttemptMayHaveLanded() {
        return earlierAttemptMayHaveLanded;
    }

    ReconciliationSource lastNotFoundSource() {
        return lastNotFoundSource;
    }

    boolean postUnverified() {
        return postUnverified;
    }

    ProviderRef targetRef() {
        return targetRef;
    }

    int convergingResends() {
        return convergingResends;
    }

    PublicationStep lastStep() {
        return lastStep;
    }

    PublicationStep dueStep() {
        return dueStep;
    }

    MediaId lastMediaId() {
        return lastMediaId;
    }

    boolean inFlight() {
        return inFlight;
    }

    PublicationSteps steps() {
        return steps;
    }

    String lastIdempotencyKey() {
        return lastIdempotencyKey;
    }

    Instant resendChainStartedAt() {
        return resendChainStartedAt;
    }

    int sameKeyResends() {
        return sameKeyResends;
    }

    boolean sameKeyResendDue() {
        return sameKeyResendDue;
    }

    Instant sameKeyResendUntil() {
        return sameKeyResendUntil;
    }

    int verificationOf() {
        return verificationOf;
    }

    Instant vanishedAt() {
        return vanishedAt;
    }

    /** The post vanished after success and no operator decided about it yet. */
    boolean vanishPending() {
        return vanishedAt != null && !vanishDecided;
    }

    int nextAttemptNo() {
        return lastAttemptNo + 1;
    }

    /**
     * The latest attempt was a step that follows the post (its first comment): the post itself
     * stands, and the step's own state is the follow-up's in {@link PublicationSteps}.
     */
    boolean lastStepIsComment() {
        return lastStep.followsPost();
    }

    /** How many failures of this kind were recorded before; a rejection is never counted. */
    int failuresBefore(FailureKind kind) {
        return switch (kind) {
            case NOT_SENT -> notSentFailures;
            case RATE_LIMITED -> rateLimitedFailures;
            case NOT_READY -> notReadyFailures;
            case REJECTED -> 0;
        };
    }

    /** What the latest attempt may have left at the provider. */
    ReadBackLicence readBackLicence() {
        boolean comment = lastStepIsComment();
        // the action's core post step is implied; any other kind (a comment, a channel's own) is named
        PublicationStep step = lastStep == PublicationStep.postStepOf(request.action()) ? null : lastStep;
        return new ReadBackLicence(request.publicationId(), request.workspaceId(), request.channelId(), lastAttemptNo,
                request.action(), request.content(), lastAttemptStartedAt, targetRef, step,
                comment ? steps.postRef() : null, request.requestedAt(), request.scheduledAt(),
                lastStep.makesPost() ? steps.prepared() : null);
    }

    /** The post's outcome is unknown, or (the post standing) its comment's. */
    boolean lastAttemptUnknown() {
        return lastStepIsComment()
                ? steps.comment() == PublicationSteps.CommentState.OUTCOME_UNKNOWN
                : status == PublicationStatus.OUTCOME_UNKNOWN;
    }

    @EventSourcingHandler
    void on(PublicationRequestedEvent event) {
        request = event;
        status = PublicationStatus.REQUESTED;
        lastStep = PublicationStep.postStepOf(event.action());
        steps.plan(event.action(), event.content(), event.steps());
    }

    @EventSourcingHandler
    void on(PublicationTargetedEvent event) {
        targetRef = event.target();
    }

    @EventSourcingHandler
    void on(PublicationSupersededEvent event) {
        status = PublicationStatus.SUPERSEDED;
    }

    @EventSourcingHandler
    void on(PublicationNothingToChangeEvent event) {
        status = PublicationStatus.FAILED;
    }

    @EventSourcingHandler
    void on(PublicationAttemptedEvent event) {
        if (status == PublicationStatus.NOT_EXECUTED && request.action().actsOnPost()) {
            convergingResends++;
        }
        lastAttemptNo = event.attemptNo();
        lastAttemptStartedAt = event.startedAt();
        lastIdempotencyKey = event.idempotencyKey();
        if (event.trigger() == AttemptTrigger.RESEND_SAME_KEY) {
            sameKeyResends++;
        } else {
            sameKeyResends = 0;
            resendChainStartedAt = event.startedAt();
        }
        sameKeyResendDue = false;
        lastAttemptExpiresAt = event.expiresAt();
        lastStep = PublicationStep.orPostStep(event.step(), request.action());
        lastMediaId = event.mediaId();
        dueStep = null;
        inFlight = true;
        if (lastStep.followsPost()) {
            steps.commentAttempted();
        } else {
            status = PublicationStatus.ATTEMPTING;
        }
    }

    @EventSourcingHandler
    void on(PublicationSucceededEvent event) {
        inFlight = false;
        switch (lastStep.role()) {
            // the publication stays ATTEMPTING between a step before the post and the next step
            case PREPARES_POST -> steps.uploadSucceeded(lastMediaId, event.providerRef());
            case FOLLOWS_POST -> steps.commentSucceeded();
            case MAKES_POST -> {
                status = PublicationStatus.SUCCEEDED;
                steps.postExists(event.providerRef());
            }
        }
    }

    @EventSourcingHandler
    void on(PublicationNextStepDueEvent event) {
        dueStep = event.step();
        if (event.step().followsPost()) {
            steps.commentDue();
        } else {
            status = PublicationStatus.ATTEMPTING;
        }
    }

    @EventSourcingHandler
    void on(PublicationResendDueEvent event) {
        sameKeyResendDue = true;
        sameKeyResendUntil = event.resendUntil();
    }

    @EventSourcingHandler
    void on(PublicationStepSkippedEvent event) {
        if (event.step().followsPost()) {
            steps.commentSkipped();
        }
    }

    @EventSourcingHandler
    void on(PublicationFailedEvent event) {
        inFlight = false;
        if (event.kind() == FailureKind.NOT_SENT) {
            notSentFailures++;
        } else if (event.kind() == FailureKind.RATE_LIMITED) {
            rateLimitedFailures++;
        } else if (event.kind() == FailureKind.NOT_READY) {
            notReadyFailures++;
        }
        if (lastStep.makesPost() && (event.retryAt() == null || event.preparationExpired())) {
            // what a per-post step prepared is not used again: a later try prepares the post anew,
            // and the new container's polls have the not-ready budget to themselves
            steps.forgetPrepared();
            notReadyFailures = 0;
        }
        if (lastStep.followsPost()) {
            steps.commentFailed(event.retryAt() != null);
            return;
        }
        status = event.retryAt() != null ? PublicationStatus.RETRY_SCHEDULED : PublicationStatus.FAILED;
    }

    @EventSourcingHandler
    void on(PublicationOutcomeUnknownEvent event) {
        inFlight = false;
        if (lastStep.isRepeatable()) {
            // made due again, or failed once the retry policy's bound is reached
            steps.uploadUnknown();
        }
        if (lastStep.followsPost()) {
            steps.commentUnknown();
        } else if (!lastStep.isRepeatable()) {
            status = PublicationStatus.OUTCOME_UNKNOWN;
            earlierAttemptMayHaveLanded = true;
        }
    }

    @EventSourcingHandler
    void on(PublicationReconciledEvent event) {
        if (lastStep.followsPost()) {
            steps.commentReconciled(event.result(), event.source());
            return;
        }
        switch (event.result()) {
            case FOUND -> {
                status = PublicationStatus.SUCCEEDED;
                steps.postExists(event.providerRef());
                postUnverified = event.unverified();
            }
            case NOT_FOUND -> {
                status = PublicationStatus.NOT_EXECUTED;
                lastNotFoundSource = event.source();
            }
            case UNKNOWN -> status = PublicationStatus.OUTCOME_UNKNOWN;
        }
    }

    @EventSourcingHandler
    void on(PublicationExecutionRequestedEvent event) {
        status = PublicationStatus.RETRY_SCHEDULED;
    }

    @EventSourcingHandler
    void on(PublicationHeldEvent event) {
        if (event.attemptNo() > 0) {
            inFlight = false; // the attempt was refused for its credentials: it did not execute
        }
        status = PublicationStatus.HELD;
    }

    @EventSourcingHandler
    void on(PublicationReleasedEvent event) {
        status = PublicationStatus.RETRY_SCHEDULED;
    }

    @EventSourcingHandler
    void on(PublicationVerificationDueEvent event) {
        verificationOf = event.attemptNo();
    }

    @EventSourcingHandler
    void on(PublicationVerifiedEvent event) {
        verificationOf = 0;
    }

    @EventSourcingHandler
    void on(PublicationVanishedEvent event) {
        verificationOf = 0;
        vanishedAt = event.vanishedAt();
        vanishDecided = false;
    }

    @EventSourcingHandler
    void on(PublicationVanishDecidedEvent event) {
        vanishDecided = true;
    }

    @EventSourcingHandler
    void on(PublicationAbandonedEvent event) {
        status = PublicationStatus.ABANDONED;
    }
}
