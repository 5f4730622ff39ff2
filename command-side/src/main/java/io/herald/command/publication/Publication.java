package io.herald.command.publication;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import io.herald.command.publishing.AutoReattemptPolicy;
import io.herald.command.publishing.ConnectionThrottle;
import io.herald.command.health.ConnectionHealth;
import io.herald.command.publishing.RetryPolicy;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.AttemptDecision.Verdict;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.DecidePublicationCommand;
import io.herald.contracts.publication.ExecutePublicationCommand;
import io.herald.contracts.publication.ExpireAttemptCommand;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationNothingToChangeEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationHeldEvent;
import io.herald.contracts.publication.PublicationReleasedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReadBackRequestedEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationStepSkippedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.PublicationSupersededEvent;
import io.herald.contracts.publication.PublicationTargetedEvent;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.RecordAttemptAuthLostCommand;
import io.herald.contracts.publication.ReleasePublicationCommand;
import io.herald.contracts.publication.RecordAttemptFailedCommand;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.RecordDuplicateSignalCommand;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.herald.contracts.publication.RequestPublicationCommand;
import io.herald.contracts.publication.RequestReadBackCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.contracts.publication.StartReadBackCommand;
import io.herald.contracts.publication.UnknownCause;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;
import org.axonframework.spring.stereotype.Aggregate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One publication of one content version to one channel, identified by its idempotency key.
 * Holds every fact the next decision needs and makes each decision: whether an attempt may start
 * (write-ahead, rule 1), when a failure is retried, that an interrupted attempt is an unknown
 * outcome (2), that nothing is written again after one without a NOT_FOUND read-back and a read
 * before the re-attempt (3), that success is final (4), and that stale results change nothing (5).
 * Nothing outside mirrors this state: processors turn its events into commands and calls.
 */
@Aggregate(cache = "publicationCache")
public class Publication {

    private static final Logger log = LoggerFactory.getLogger(Publication.class);
    static final String STALE_TRIGGER = "stale_trigger";
    static final String WAITING_FOR_ENTRY = "waiting_for_entry";
    static final String HELD = "connection_needs_reauth";

    @AggregateIdentifier
    private PublicationId publicationId;
    private WorkspaceId workspaceId;
    private ChannelId channelId;
    private ChannelType channelType;
    private PublicationAction action;
    private Content content;
    private String contentHash;
    private long contentVersion;
    private Instant scheduledAt;
    private Instant requestedAt;
    private PublicationStatus status;
    private int lastAttemptNo;
    private Instant lastAttemptStartedAt;
    private Instant lastAttemptExpiresAt;
    /** Some attempt ended with an unknown outcome, so its post may exist at the provider. */
    private boolean earlierAttemptMayHaveLanded;
    private ReconciliationSource lastNotFoundSource;
    private int notSentFailures;
    private int rateLimitedFailures;
    /** For update and delete: the entry's post acted on, fixed when the operation takes its turn. */
    private ProviderRef targetRef;
    /** For update and delete: how often a read-back showed the change missing and it was sent again. */
    private int convergingResends;
    /** The step of the latest attempt, and its image for an upload. */
    private PublicationStep lastStep;
    private MediaId lastMediaId;
    /** The latest attempt has no recorded result yet (its step may be an upload or the comment). */
    private boolean inFlight;
    private final PublicationSteps steps = new PublicationSteps();

    protected Publication() {
        // required by Axon
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    public boolean handle(RequestPublicationCommand command) {
        String requestedHash = command.content().hash();
        if (publicationId != null) {
            if (!requestedHash.equals(contentHash) || !Objects.equals(scheduledAt, command.scheduledAt())) {
                throw new HeraldRejection(ErrorCode.IDEMPOTENCY_KEY_REUSED,
                        "publication " + publicationId + " was already requested with other content or schedule;"
                                + " publish a new content version instead");
            }
            return false;
        }
        apply(new PublicationRequestedEvent(command.publicationId(), command.workspaceId(),
                command.calendarEntryId(), command.contentVersion(), command.channelId(), command.channelType(),
                command.action(), command.content(), requestedHash, command.scheduledAt(), command.requestedAt(),
                command.requestedBy()));
        return true;
    }

    /**
     * Write-ahead: the attempt is on record (its expiry timer row in the same transaction) before
     * anyone calls the provider. Every refusal is a returned decision, not an exception: a refused
     * command inside a dispatcher's batch must leave the batch's transaction untouched.
     */
    @CommandHandler
    public AttemptDecision handle(StartAttemptCommand command, ConnectionThrottle throttle,
                                  AutoReattemptPolicy autoReattempt, EntryOrder entryOrder, RetryPolicy retryPolicy,
                                  ConnectionHealth health) {
        int attemptNo = lastAttemptNo + 1;
        if (command.expectedAttemptNo() != 0 && command.expectedAttemptNo() != attemptNo) {
            log.info("ignoring a trigger for attempt {} of {}: the next attempt is {}", command.expectedAttemptNo(),
                    publicationId, attemptNo);
            return AttemptDecision.refused(publicationId, STALE_TRIGGER, "attempt " + command.expectedAttemptNo()
                    + " was already due before; the next attempt is " + attemptNo);
        }
        if (status == PublicationStatus.SUCCEEDED) {
            return startComment(command, attemptNo, throttle, autoReattempt);
        }
        switch (status) {
            case REQUESTED, RETRY_SCHEDULED -> { }
            // between two steps: the previous one ended and the next is due
            case ATTEMPTING -> {
                if (inFlight) {
                    HeraldRejection refusal = refusalToRun();
                    return AttemptDecision.refused(publicationId, refusal.code().code(), refusal.getMessage());
                }
            }
            case NOT_EXECUTED -> {
                if (mayResendConvergingStep(command, retryPolicy)) {
                    log.info("the read-back of {} showed its {} missing: sending it again", publicationId,
                            action.wireName());
                } else if (action.actsOnPost() // past the retry policy's bound, a converging step waits too
                        || command.trigger() != AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND
                        || lastNotFoundSource != ReconciliationSource.AUTOMATIC
                        || !autoReattempt.reattemptsAfterNotFound(workspaceId, channelId)) {
                    log.info("publication {} was not found after an unknown outcome; an operator decides whether to"
                            + " re-attempt", publicationId);
                    return AttemptDecision.refused(publicationId, ErrorCode.PUBLICATION_NOT_EXECUTABLE.code(),
                            "publication " + publicationId + " awaits an operator's decision");
                }
            }
            default -> {
                HeraldRejection refusal = refusalToRun();
                return AttemptDecision.refused(publicationId, refusal.code().code(), refusal.getMessage());
            }
        }
        if (action.actsOnPost() && targetRef == null) {
            AttemptDecision notYet = takeTurn(entryOrder.turnOf(publicationId), command.startedAt());
            if (notYet != null) {
                return notYet;
            }
        }
        Optional<AttemptDecision> held = holdIfAuthLost(command, health);
        if (held.isPresent()) {
            return held.get();
        }
        // a start at scheduledAt waits on a timer row; a request to execute earlier is the client's right
        Instant notBefore = throttle.notBefore(workspaceId, channelId);
        if (command.startedAt().isBefore(notBefore)) {
            return decision(Verdict.WAIT, attemptNo, command.trigger(), null, notBefore);
        }
        ContentMedia upload = PublicationStep.postStepOf(action) == PublicationStep.DELETE_POST ? null
                : steps.nextUpload();
        if (upload != null) {
            // uploads are repeatable: nothing is read before one, an unknown one is simply uploaded again
            return start(command, attemptNo, PublicationStep.UPLOAD_MEDIA, upload.mediaId());
        }
        // a converging step is sent again only after a read-back showed its change missing: no read first
        if (earlierAttemptMayHaveLanded && !command.readBeforeCreateDone() && !action.actsOnPost()) {
            return decision(Verdict.READ_FIRST, attemptNo, command.trigger(), readBackLicence(), null);
        }
        return start(command, attemptNo, PublicationStep.postStepOf(action), null);
    }

    /** The post exists: only its first comment may still be written, once (unless NOT_FOUND between). */
    private AttemptDecision startComment(StartAttemptCommand command, int attemptNo, ConnectionThrottle throttle,
                                         AutoReattemptPolicy autoReattempt) {
        boolean autoAllowed = command.trigger() == AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND
                && autoReattempt.reattemptsAfterNotFound(workspaceId, channelId);
        if (!steps.commentStartable(command.trigger(), autoAllowed)) {
            HeraldRejection refusal = refusalToRun();
            return AttemptDecision.refused(publicationId, refusal.code().code(), refusal.getMessage());
        }
        Instant notBefore = throttle.notBefore(workspaceId, channelId);
        if (command.startedAt().isBefore(notBefore)) {
            return decision(Verdict.WAIT, attemptNo, command.trigger(), null, notBefore);
        }
        if (steps.commentMayHaveLanded() && !command.readBeforeCreateDone()) {
            return decision(Verdict.READ_FIRST, attemptNo, command.trigger(), readBackLicence(), null);
        }
        return start(command, attemptNo, PublicationStep.FIRST_COMMENT, null);
    }

    private AttemptDecision start(StartAttemptCommand command, int attemptNo, PublicationStep step, MediaId mediaId) {
        Instant expiresAt = command.startedAt().plus(command.attemptTimeout());
        apply(new PublicationAttemptedEvent(publicationId, workspaceId, channelId, attemptNo, command.trigger(),
                publicationId.value(), contentHash, command.startedAt(), expiresAt, null, step, mediaId));
        return new AttemptDecision(Verdict.START, publicationId, workspaceId, channelId, channelType, attemptNo,
                command.trigger(), action, content, scheduledAt, null, null, null, null, targetRef, step, mediaId,
                step == PublicationStep.postStepOf(action) ? steps.uploads() : List.of(),
                step == PublicationStep.FIRST_COMMENT ? steps.postRef() : null);
    }

    /**
     * The entry's order (DESIGN.md "An entry's post over time"): wait for an earlier operation,
     * end without a call, or fix the post acted on. Null: the attempt may go on.
     */
    private AttemptDecision takeTurn(EntryOrder.Turn turn, Instant at) {
        if (turn instanceof EntryOrder.Wait wait) {
            log.info("{} of {} waits for {} of the same entry and channel", action.wireName(), publicationId,
                    wait.earlier());
            return AttemptDecision.refused(publicationId, WAITING_FOR_ENTRY, "waits for " + wait.earlier()
                    + ", accepted earlier for the same entry and channel, to settle");
        }
        if (turn instanceof EntryOrder.Superseded superseded) {
            String detail = "content version " + contentVersion + " is older than version "
                    + superseded.appliedVersion() + ", already applied to the entry's post; nothing was sent";
            apply(new PublicationSupersededEvent(publicationId, workspaceId, contentVersion,
                    superseded.appliedVersion(), detail, at));
            return AttemptDecision.refused(publicationId, "superseded", detail);
        }
        if (turn instanceof EntryOrder.NothingToChange nothing) {
            apply(new PublicationNothingToChangeEvent(publicationId, workspaceId, nothing.reason(), at));
            return AttemptDecision.refused(publicationId, ErrorCode.NOTHING_TO_CHANGE.code(), nothing.reason());
        }
        apply(new PublicationTargetedEvent(publicationId, workspaceId, ((EntryOrder.Go) turn).target(), at));
        return null;
    }

    /** Converging steps (update, delete) are sent again after an automatic NOT_FOUND, within the retry policy. */
    private boolean mayResendConvergingStep(StartAttemptCommand command, RetryPolicy retryPolicy) {
        return action.actsOnPost() && command.trigger() == AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND
                && lastNotFoundSource == ReconciliationSource.AUTOMATIC
                && retryPolicy.mayResend(channelType, convergingResends + 1);
    }

    /** Connection health: a connection that needs new credentials gets no call; the publication waits. */
    private Optional<AttemptDecision> holdIfAuthLost(StartAttemptCommand command, ConnectionHealth health) {
        Optional<String> lost = health.authLost(workspaceId, channelId);
        if (lost.isEmpty()) {
            return Optional.empty();
        }
        apply(new PublicationHeldEvent(publicationId, workspaceId, channelId, 0,
                ConnectionHealth.heldReason(lost.get()), null, null, requestedAt, command.startedAt()));
        return Optional.of(AttemptDecision.refused(publicationId, HELD, "channel " + channelId
                + " needs new credentials; the publication is held"));
    }

    /** The provider refused the attempt for its credentials: it did not execute, and it waits. */
    @CommandHandler
    public boolean handle(RecordAttemptAuthLostCommand command) {
        if (isStale(command.attemptNo(), "credentials refusal")) {
            return false;
        }
        if (lastStep == PublicationStep.FIRST_COMMENT) {
            // the post exists and stays SUCCEEDED: the comment that was refused waits for an operator
            apply(new PublicationFailedEvent(publicationId, workspaceId, command.attemptNo(), FailureKind.REJECTED,
                    command.providerCode(), ConnectionHealth.heldReason(command.reason()), command.trace(), null,
                    command.recordedAt()));
            return true;
        }
        apply(new PublicationHeldEvent(publicationId, workspaceId, channelId, command.attemptNo(),
                ConnectionHealth.heldReason(command.reason()), command.providerCode(), command.trace(), requestedAt,
                command.recordedAt()));
        return true;
    }

    /** @return whether the publication was held and is now due again */
    @CommandHandler
    public boolean handle(ReleasePublicationCommand command) {
        if (status != PublicationStatus.HELD) {
            return false;
        }
        apply(new PublicationReleasedEvent(publicationId, workspaceId, channelId, lastAttemptNo + 1,
                command.releasedAt()));
        return true;
    }

    @CommandHandler
    public boolean handle(RecordAttemptSucceededCommand command) {
        if (isStale(command.attemptNo(), "success")) {
            return false;
        }
        apply(new PublicationSucceededEvent(publicationId, workspaceId, command.attemptNo(), command.providerRef(),
                command.trace(), command.recordedAt()));
        nextStepIfDue(command.recordedAt());
        return true;
    }

    /**
     * After an upload, the next upload or the post; after the post, its first comment. Each is a
     * new attempt the dispatcher asks for; the event makes it due durably (its token, not memory).
     */
    private void nextStepIfDue(Instant at) {
        PublicationStep next = null;
        if (status == PublicationStatus.SUCCEEDED) {
            if (steps.commentDueAfterPost()) {
                next = PublicationStep.FIRST_COMMENT;
            }
        } else if (lastStep == PublicationStep.UPLOAD_MEDIA) {
            next = steps.nextUpload() != null ? PublicationStep.UPLOAD_MEDIA : PublicationStep.postStepOf(action);
        }
        if (next != null) {
            apply(new PublicationNextStepDueEvent(publicationId, workspaceId, lastAttemptNo + 1, next, at));
        }
    }

    /** @return when the attempt is retried, or null: the failure is final (or the result stale) */
    @CommandHandler
    public Instant handle(RecordAttemptFailedCommand command, RetryPolicy retryPolicy) {
        if (isStale(command.attemptNo(), "failure")) {
            return null;
        }
        int failuresOfKind = 1 + switch (command.kind()) {
            case NOT_SENT -> notSentFailures;
            case RATE_LIMITED -> rateLimitedFailures;
            case REJECTED -> 0;
        };
        Instant retryAt = retryPolicy.retryAt(channelType, command.kind(), failuresOfKind, command.providerDelay(),
                command.recordedAt());
        apply(new PublicationFailedEvent(publicationId, workspaceId, command.attemptNo(), command.kind(),
                command.errorCode(), command.detail(), command.trace(), retryAt, command.recordedAt()));
        return retryAt;
    }

    @CommandHandler
    public boolean handle(RecordAttemptOutcomeUnknownCommand command, RetryPolicy retryPolicy) {
        if (isStale(command.attemptNo(), "unknown outcome")) {
            return false;
        }
        apply(new PublicationOutcomeUnknownEvent(publicationId, workspaceId, command.attemptNo(), command.cause(),
                command.detail(), command.trace(), command.recordedAt()));
        uploadAgainIfAllowed(retryPolicy, command.recordedAt());
        return true;
    }

    /**
     * An upload no post uses is invisible, so an unknown one is uploaded again, as often as the
     * retry policy allows requests that never left; past that it is FAILED for an operator.
     */
    private void uploadAgainIfAllowed(RetryPolicy retryPolicy, Instant at) {
        if (lastStep != PublicationStep.UPLOAD_MEDIA) {
            return;
        }
        if (retryPolicy.retryAt(channelType, FailureKind.NOT_SENT, steps.uploadUnknowns(), null, at) != null) {
            apply(new PublicationNextStepDueEvent(publicationId, workspaceId, lastAttemptNo + 1,
                    PublicationStep.UPLOAD_MEDIA, at));
        } else {
            log.warn("upload {} of {} stayed unknown {} times: an operator decides", lastMediaId, publicationId,
                    steps.uploadUnknowns());
            apply(new PublicationFailedEvent(publicationId, workspaceId, lastAttemptNo, FailureKind.REJECTED,
                    "upload_outcome_unknown", "the upload of " + lastMediaId + " had no clear answer "
                            + steps.uploadUnknowns() + " times; nothing was posted. Re-attempt to upload again.",
                    AttemptTrace.nothingCameBack(null, null), null, at));
        }
    }

    /**
     * A duplicate refusal proves an earlier attempt landed only if an earlier attempt may have
     * executed; otherwise the text was already there, and an operator decides.
     */
    @CommandHandler
    public boolean handle(RecordDuplicateSignalCommand command) {
        if (isStale(command.attemptNo(), "duplicate signal")) {
            return false;
        }
        if (earlierAttemptMayHaveLanded && lastStep == PublicationStep.postStepOf(action)) {
            apply(new PublicationReconciledEvent(publicationId, workspaceId, command.attemptNo(),
                    ReconciliationResult.FOUND, ReconciliationSource.PROVIDER_DUPLICATE_SIGNAL,
                    command.earlierPost(), command.detail(), null, null, command.recordedAt()));
        } else {
            apply(new PublicationFailedEvent(publicationId, workspaceId, command.attemptNo(),
                    FailureKind.REJECTED, "duplicate_content",
                    "the provider refused the post as a duplicate of one that already exists (perhaps posted by"
                            + " hand): " + command.detail(),
                    command.trace(), null, command.recordedAt()));
        }
        nextStepIfDue(command.recordedAt());
        return true;
    }

    @CommandHandler
    public boolean handle(RecordReconciliationCommand command) {
        if (command.attemptNo() != lastAttemptNo) {
            log.info("ignoring read-back for attempt {} of {}: the latest attempt is {}",
                    command.attemptNo(), publicationId, lastAttemptNo);
            return false;
        }
        if (lastStep == PublicationStep.FIRST_COMMENT) {
            return reconcileComment(command);
        }
        boolean lateFind = command.result() == ReconciliationResult.FOUND
                && (status == PublicationStatus.NOT_EXECUTED || status == PublicationStatus.RETRY_SCHEDULED)
                && earlierAttemptMayHaveLanded;
        if (status != PublicationStatus.OUTCOME_UNKNOWN && !lateFind) {
            log.info("ignoring {} read-back for {}: status is {}", command.result(), publicationId, status);
            return false;
        }
        apply(new PublicationReconciledEvent(publicationId, workspaceId, command.attemptNo(), command.result(),
                ReconciliationSource.AUTOMATIC, command.providerRef(), command.detail(), null, null,
                command.recordedAt()));
        nextStepIfDue(command.recordedAt());
        return true;
    }

    /** The same rules as the post's: only an unknown comment is read back, and a late find wins. */
    private boolean reconcileComment(RecordReconciliationCommand command) {
        PublicationSteps.CommentState state = steps.comment();
        boolean lateFind = command.result() == ReconciliationResult.FOUND
                && (state == PublicationSteps.CommentState.NOT_EXECUTED
                || state == PublicationSteps.CommentState.RETRY_SCHEDULED) && steps.commentMayHaveLanded();
        if (state != PublicationSteps.CommentState.OUTCOME_UNKNOWN && !lateFind) {
            log.info("ignoring {} read-back of the comment of {}: it is {}", command.result(), publicationId, state);
            return false;
        }
        apply(new PublicationReconciledEvent(publicationId, workspaceId, command.attemptNo(), command.result(),
                ReconciliationSource.AUTOMATIC, command.providerRef(), command.detail(), null, null,
                command.recordedAt()));
        return true;
    }

    /** Rule 2: an attempt whose result never arrived is an unknown outcome, never a retry. */
    @CommandHandler
    public boolean handle(ExpireAttemptCommand command, RetryPolicy retryPolicy) {
        if (!inFlight || command.attemptNo() != lastAttemptNo) {
            return false;
        }
        log.warn("attempt {} of {} has no result by {}: outcome unknown", command.attemptNo(), publicationId,
                lastAttemptExpiresAt);
        apply(new PublicationOutcomeUnknownEvent(publicationId, workspaceId, command.attemptNo(),
                UnknownCause.INTERRUPTED, "no result was recorded before the attempt's deadline; the process may"
                        + " have died or the call hung",
                AttemptTrace.nothingCameBack(null, null), lastAttemptExpiresAt));
        uploadAgainIfAllowed(retryPolicy, lastAttemptExpiresAt);
        return true;
    }

    /** A read-back is worth making only while the attempt it is about still has an unknown outcome. */
    @CommandHandler
    public ReadBackLicence handle(StartReadBackCommand command) {
        if (!lastAttemptUnknown() || command.attemptNo() != lastAttemptNo) {
            log.info("no read-back of attempt {} of {}: status {}, latest attempt {}", command.attemptNo(),
                    publicationId, status, lastAttemptNo);
            return null;
        }
        return readBackLicence();
    }

    @CommandHandler
    public void handle(ExecutePublicationCommand command) {
        requireWorkspace(command.workspaceId());
        switch (status) {
            case REQUESTED, FAILED -> apply(new PublicationExecutionRequestedEvent(publicationId, workspaceId,
                    AttemptTrigger.EXECUTE_REQUESTED, command.requestedBy(), null, command.requestedAt(),
                    lastAttemptNo + 1));
            case RETRY_SCHEDULED -> { }
            case NOT_EXECUTED -> throw new HeraldRejection(ErrorCode.PUBLICATION_NOT_EXECUTABLE,
                    "publication " + publicationId + " was not found at the provider after an unknown outcome;"
                            + " an operator decides whether to re-attempt");
            default -> throw refusalToRun();
        }
    }

    @CommandHandler
    public void handle(DecidePublicationCommand command) {
        requireWorkspace(command.workspaceId());
        if (status == PublicationStatus.SUCCEEDED && steps.commentNeedsDecision()) {
            decideOnComment(command);
            return;
        }
        switch (command.decision()) {
            case CONFIRM_PUBLISHED -> {
                requireDecidable(command, PublicationStatus.OUTCOME_UNKNOWN, PublicationStatus.NOT_EXECUTED,
                        PublicationStatus.FAILED);
                ProviderRef ref = command.providerRef();
                if (ref == null || (isBlank(ref.id()) && isBlank(ref.url()))) {
                    throw new HeraldRejection(ErrorCode.VALIDATION_FAILED,
                            "confirm_published needs the post's id or URL at the provider");
                }
                apply(new PublicationReconciledEvent(publicationId, workspaceId, lastAttemptNo,
                        ReconciliationResult.FOUND, ReconciliationSource.OPERATOR, ref, "confirmed published by "
                                + command.operator(), command.operator(), command.note(), command.decidedAt()));
                nextStepIfDue(command.decidedAt());
            }
            case CONFIRM_NOT_PUBLISHED -> {
                requireDecidable(command, PublicationStatus.OUTCOME_UNKNOWN);
                apply(new PublicationReconciledEvent(publicationId, workspaceId, lastAttemptNo,
                        ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR, null,
                        "confirmed not published by " + command.operator(), command.operator(), command.note(),
                        command.decidedAt()));
            }
            case REATTEMPT -> {
                requireDecidable(command, PublicationStatus.NOT_EXECUTED, PublicationStatus.FAILED);
                apply(new PublicationExecutionRequestedEvent(publicationId, workspaceId,
                        AttemptTrigger.OPERATOR_REATTEMPT, command.operator(), command.note(), command.decidedAt(),
                        lastAttemptNo + 1));
            }
            case ABANDON -> {
                requireDecidable(command, PublicationStatus.REQUESTED, PublicationStatus.RETRY_SCHEDULED,
                        PublicationStatus.FAILED, PublicationStatus.OUTCOME_UNKNOWN, PublicationStatus.NOT_EXECUTED,
                        PublicationStatus.HELD);
                apply(new PublicationAbandonedEvent(publicationId, workspaceId, command.operator(), command.note(),
                        command.decidedAt()));
            }
            default -> throw new IllegalArgumentException("unknown decision " + command.decision());
        }
    }

    /** The post stands; the decision is about its first comment ({@code decisionStep: first_comment}). */
    private void decideOnComment(DecidePublicationCommand command) {
        PublicationSteps.CommentState state = steps.comment();
        switch (command.decision()) {
            case CONFIRM_PUBLISHED -> apply(new PublicationReconciledEvent(publicationId, workspaceId, lastAttemptNo,
                    ReconciliationResult.FOUND, ReconciliationSource.OPERATOR, command.providerRef(),
                    "comment confirmed published by " + command.operator(), command.operator(), command.note(),
                    command.decidedAt()));
            case CONFIRM_NOT_PUBLISHED -> {
                if (state != PublicationSteps.CommentState.OUTCOME_UNKNOWN) {
                    throw commentDecisionRefused(command, state);
                }
                apply(new PublicationReconciledEvent(publicationId, workspaceId, lastAttemptNo,
                        ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR, null,
                        "comment confirmed not published by " + command.operator(), command.operator(),
                        command.note(), command.decidedAt()));
            }
            case REATTEMPT -> {
                if (state == PublicationSteps.CommentState.OUTCOME_UNKNOWN) {
                    throw commentDecisionRefused(command, state);
                }
                apply(new PublicationNextStepDueEvent(publicationId, workspaceId, lastAttemptNo + 1,
                        PublicationStep.FIRST_COMMENT, command.decidedAt()));
            }
            case ABANDON -> apply(new PublicationStepSkippedEvent(publicationId, workspaceId, lastAttemptNo,
                    PublicationStep.FIRST_COMMENT, command.operator(), command.note(), command.decidedAt()));
            default -> throw new IllegalArgumentException("unknown decision " + command.decision());
        }
    }

    private HeraldRejection commentDecisionRefused(DecidePublicationCommand command,
                                                   PublicationSteps.CommentState state) {
        String hint = state == PublicationSteps.CommentState.OUTCOME_UNKNOWN
                ? ": the comment's outcome is unknown; confirm published or not published first" : "";
        return new HeraldRejection(ErrorCode.DECISION_NOT_ALLOWED, command.decision().wireName()
                + " is not allowed on the first comment while it is " + state + hint);
    }

    @CommandHandler
    public void handle(RequestReadBackCommand command) {
        requireWorkspace(command.workspaceId());
        if (!lastAttemptUnknown()) {
            throw new HeraldRejection(ErrorCode.DECISION_NOT_ALLOWED,
                    "a read-back is only useful while the outcome is unknown; the publication is " + status);
        }
        apply(new PublicationReadBackRequestedEvent(publicationId, workspaceId, lastAttemptNo, command.requestedBy(),
                command.requestedAt()));
    }

    private void requireWorkspace(WorkspaceId caller) {
        if (!workspaceId.equals(caller)) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no publication " + publicationId);
        }
    }

    /** The post's outcome is unknown, or (the post standing) its comment's. */
    private boolean lastAttemptUnknown() {
        return lastStep == PublicationStep.FIRST_COMMENT
                ? steps.comment() == PublicationSteps.CommentState.OUTCOME_UNKNOWN
                : status == PublicationStatus.OUTCOME_UNKNOWN;
    }

    private boolean isStale(int attemptNo, String what) {
        if (inFlight && attemptNo == lastAttemptNo) {
            return false;
        }
        log.info("ignoring {} for attempt {} of {}: status {}, latest attempt {}", what, attemptNo, publicationId,
                status, lastAttemptNo);
        return true;
    }

    private HeraldRejection refusalToRun() {
        return switch (status) {
            case SUCCEEDED -> new HeraldRejection(ErrorCode.PUBLICATION_ALREADY_SUCCEEDED,
                    "publication " + publicationId + " already succeeded; it is never executed again");
            case ATTEMPTING -> new HeraldRejection(ErrorCode.ATTEMPT_IN_FLIGHT,
                    "attempt " + lastAttemptNo + " of publication " + publicationId + " is still in flight");
            case OUTCOME_UNKNOWN -> new HeraldRejection(ErrorCode.OUTCOME_UNKNOWN_REQUIRES_DECISION,
                    "the outcome of attempt " + lastAttemptNo + " is unknown; it must be read back or decided by"
                            + " an operator before anything is written again");
            case ABANDONED -> new HeraldRejection(ErrorCode.PUBLICATION_NOT_EXECUTABLE,
                    "publication " + publicationId + " was abandoned");
            default -> new HeraldRejection(ErrorCode.PUBLICATION_NOT_EXECUTABLE,
                    "publication " + publicationId + " cannot start an attempt while " + status);
        };
    }

    private void requireDecidable(DecidePublicationCommand command, PublicationStatus... allowed) {
        for (PublicationStatus s : allowed) {
            if (s == status) {
                return;
            }
        }
        String hint = switch (status) {
            case OUTCOME_UNKNOWN -> ": the outcome is unknown; confirm published or not published first";
            case ATTEMPTING -> ": an attempt is in flight; wait for its outcome";
            case SUCCEEDED -> ": the publication already succeeded";
            case ABANDONED -> ": the publication was abandoned";
            default -> "";
        };
        throw new HeraldRejection(ErrorCode.DECISION_NOT_ALLOWED,
                command.decision().wireName() + " is not allowed while " + status + hint);
    }

    private AttemptDecision decision(Verdict verdict, int attemptNo, AttemptTrigger trigger,
                                     ReadBackLicence readFirst, Instant notBefore) {
        return new AttemptDecision(verdict, publicationId, workspaceId, channelId, channelType, attemptNo, trigger,
                action, content, scheduledAt, readFirst, notBefore, null, null, targetRef);
    }

    /** What the latest attempt may have left at the provider. */
    private ReadBackLicence readBackLicence() {
        boolean comment = lastStep == PublicationStep.FIRST_COMMENT;
        return new ReadBackLicence(publicationId, workspaceId, channelId, lastAttemptNo, action, content,
                lastAttemptStartedAt, targetRef, comment ? lastStep : null, comment ? steps.postRef() : null);
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    @EventSourcingHandler
    void on(PublicationRequestedEvent event) {
        publicationId = event.publicationId();
        workspaceId = event.workspaceId();
        channelId = event.channelId();
        channelType = event.channelType();
        action = event.action();
        content = event.content();
        contentHash = event.contentHash();
        contentVersion = event.contentVersion();
        scheduledAt = event.scheduledAt();
        requestedAt = event.requestedAt();
        status = PublicationStatus.REQUESTED;
        lastStep = PublicationStep.postStepOf(action);
        steps.plan(action, content);
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
        if (status == PublicationStatus.NOT_EXECUTED && action.actsOnPost()) {
            convergingResends++;
        }
        lastAttemptNo = event.attemptNo();
        lastAttemptStartedAt = event.startedAt();
        lastAttemptExpiresAt = event.expiresAt();
        lastStep = PublicationStep.orPostStep(event.step(), action);
        lastMediaId = event.mediaId();
        inFlight = true;
        if (lastStep == PublicationStep.FIRST_COMMENT) {
            steps.commentAttempted();
        } else {
            status = PublicationStatus.ATTEMPTING;
        }
    }

    @EventSourcingHandler
    void on(PublicationSucceededEvent event) {
        inFlight = false;
        switch (lastStep) {
            // the publication stays ATTEMPTING between an upload and the next step
            case UPLOAD_MEDIA -> steps.uploadSucceeded(lastMediaId, event.providerRef());
            case FIRST_COMMENT -> steps.commentSucceeded();
            default -> {
                status = PublicationStatus.SUCCEEDED;
                steps.postExists(event.providerRef());
            }
        }
    }

    @EventSourcingHandler
    void on(PublicationNextStepDueEvent event) {
        if (event.step() == PublicationStep.FIRST_COMMENT) {
            steps.commentDue();
        } else {
            status = PublicationStatus.ATTEMPTING;
        }
    }

    @EventSourcingHandler
    void on(PublicationStepSkippedEvent event) {
        if (event.step() == PublicationStep.FIRST_COMMENT) {
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
        }
        if (lastStep == PublicationStep.FIRST_COMMENT) {
            steps.commentFailed(event.retryAt() != null);
            return;
        }
        status = event.retryAt() != null ? PublicationStatus.RETRY_SCHEDULED : PublicationStatus.FAILED;
    }

    @EventSourcingHandler
    void on(PublicationOutcomeUnknownEvent event) {
        inFlight = false;
        switch (lastStep) {
            // still in progress: the upload is made due again, or it fails once the retry policy's bound is reached
            case UPLOAD_MEDIA -> steps.uploadUnknown();
            case FIRST_COMMENT -> steps.commentUnknown();
            default -> {
                status = PublicationStatus.OUTCOME_UNKNOWN;
                earlierAttemptMayHaveLanded = true;
            }
        }
    }

    @EventSourcingHandler
    void on(PublicationReconciledEvent event) {
        if (lastStep == PublicationStep.FIRST_COMMENT) {
            steps.commentReconciled(event.result(), event.source());
            return;
        }
        switch (event.result()) {
            case FOUND -> {
                status = PublicationStatus.SUCCEEDED;
                steps.postExists(event.providerRef());
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
    void on(PublicationAbandonedEvent event) {
        status = PublicationStatus.ABANDONED;
    }
}
