package io.herald.command.publication;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.DecidePublicationCommand;
import io.herald.contracts.publication.ExecutePublicationCommand;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReadBackRequestedEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.ReconciliationHint;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.RecordAttemptFailedCommand;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.RecordDuplicateSignalCommand;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.herald.contracts.publication.RequestPublicationCommand;
import io.herald.contracts.publication.RequestReadBackCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.contracts.publication.UnknownCause;
import java.time.Instant;
import java.util.Objects;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.annotation.DeadlineHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.messaging.MetaData;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;
import org.axonframework.spring.stereotype.Aggregate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One publication of one content version to one channel, identified by its idempotency key.
 * Enforces DESIGN.md's rules: write-ahead attempts (1), interrupted = unknown (2), no blind retry
 * after an unknown outcome (3), succeeded is final (4), stale results change nothing (5).
 */
@Aggregate(cache = "publicationCache")
public class Publication {

    private static final Logger log = LoggerFactory.getLogger(Publication.class);
    private static final MetaData NO_RECONCILIATION = MetaData.from(ReconciliationHint.neverOpened());

    @AggregateIdentifier
    private PublicationId publicationId;
    private WorkspaceId workspaceId;
    private ChannelId channelId;
    private String contentHash;
    private Instant scheduledAt;
    private PublicationStatus status;
    private int lastAttemptNo;
    /** The expiry deadline of the attempt in flight; its result cancels it instead of letting it fire. */
    private String attemptExpiryId;
    /** Some attempt ended with an unknown outcome, so its post may exist at the provider. */
    private boolean earlierAttemptMayHaveLanded;
    private ReconciliationSource lastNotFoundSource;

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

    /** Write-ahead: the attempt is on record (and its expiry scheduled) before anyone calls the provider. */
    @CommandHandler
    public int handle(StartAttemptCommand command, DeadlineManager deadlineManager) {
        switch (status) {
            case REQUESTED, RETRY_SCHEDULED -> { }
            case NOT_EXECUTED -> {
                if (command.trigger() != AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND
                        || lastNotFoundSource != ReconciliationSource.AUTOMATIC) {
                    throw new HeraldRejection(ErrorCode.PUBLICATION_NOT_EXECUTABLE,
                            "publication " + publicationId + " awaits an operator's decision");
                }
            }
            default -> throw refusalToRun();
        }
        int attemptNo = lastAttemptNo + 1;
        Instant expiresAt = command.startedAt().plus(command.attemptTimeout());
        String expiryId = deadlineManager.schedule(expiresAt, AttemptDeadline.NAME,
                new AttemptDeadline(attemptNo, expiresAt));
        apply(new PublicationAttemptedEvent(publicationId, workspaceId, channelId, attemptNo, command.trigger(),
                publicationId.value(), contentHash, command.startedAt(), expiresAt, expiryId), reconciliationHint());
        return attemptNo;
    }

    @CommandHandler
    public void handle(RecordAttemptSucceededCommand command, DeadlineManager deadlineManager) {
        if (isStale(command.attemptNo(), "success")) {
            return;
        }
        cancelExpiry(deadlineManager);
        apply(new PublicationSucceededEvent(publicationId, workspaceId, command.attemptNo(), command.providerRef(),
                command.trace(), command.recordedAt()), reconciliationHint());
    }

    @CommandHandler
    public void handle(RecordAttemptFailedCommand command, DeadlineManager deadlineManager) {
        if (command.retryAt() != null && !command.kind().provablyNotExecuted()) {
            throw new IllegalArgumentException("a " + command.kind() + " failure is never retried");
        }
        if (isStale(command.attemptNo(), "failure")) {
            return;
        }
        cancelExpiry(deadlineManager);
        apply(new PublicationFailedEvent(publicationId, workspaceId, command.attemptNo(), command.kind(),
                command.errorCode(), command.detail(), command.trace(), command.retryAt(), command.recordedAt()));
    }

    @CommandHandler
    public void handle(RecordAttemptOutcomeUnknownCommand command, DeadlineManager deadlineManager) {
        if (isStale(command.attemptNo(), "unknown outcome")) {
            return;
        }
        cancelExpiry(deadlineManager);
        apply(new PublicationOutcomeUnknownEvent(publicationId, workspaceId, command.attemptNo(), command.cause(),
                command.detail(), command.trace(), command.recordedAt()));
    }

    /**
     * A duplicate refusal proves an earlier attempt landed only if an earlier attempt may have
     * executed; otherwise the text was already there, and an operator decides.
     */
    @CommandHandler
    public void handle(RecordDuplicateSignalCommand command, DeadlineManager deadlineManager) {
        if (isStale(command.attemptNo(), "duplicate signal")) {
            return;
        }
        cancelExpiry(deadlineManager);
        if (earlierAttemptMayHaveLanded) {
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
    }

    @CommandHandler
    public void handle(RecordReconciliationCommand command) {
        if (command.attemptNo() != lastAttemptNo) {
            log.info("ignoring read-back for attempt {} of {}: the latest attempt is {}",
                    command.attemptNo(), publicationId, lastAttemptNo);
            return;
        }
        boolean lateFind = command.result() == ReconciliationResult.FOUND
                && (status == PublicationStatus.NOT_EXECUTED || status == PublicationStatus.RETRY_SCHEDULED)
                && earlierAttemptMayHaveLanded;
        if (status != PublicationStatus.OUTCOME_UNKNOWN && !lateFind) {
            log.info("ignoring {} read-back for {}: status is {}", command.result(), publicationId, status);
            return;
        }
        apply(new PublicationReconciledEvent(publicationId, workspaceId, command.attemptNo(), command.result(),
                ReconciliationSource.AUTOMATIC, command.providerRef(), command.detail(), null, null,
                command.recordedAt()));
    }

    @CommandHandler
    public void handle(ExecutePublicationCommand command) {
        requireWorkspace(command.workspaceId());
        switch (status) {
            case REQUESTED, FAILED -> apply(new PublicationExecutionRequestedEvent(publicationId, workspaceId,
                    AttemptTrigger.EXECUTE_REQUESTED, command.requestedBy(), null, command.requestedAt()));
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
                        AttemptTrigger.OPERATOR_REATTEMPT, command.operator(), command.note(), command.decidedAt()));
            }
            case ABANDON -> {
                requireDecidable(command, PublicationStatus.REQUESTED, PublicationStatus.RETRY_SCHEDULED,
                        PublicationStatus.FAILED, PublicationStatus.OUTCOME_UNKNOWN, PublicationStatus.NOT_EXECUTED);
                apply(new PublicationAbandonedEvent(publicationId, workspaceId, command.operator(), command.note(),
                        command.decidedAt()));
            }
            default -> throw new IllegalArgumentException("unknown decision " + command.decision());
        }
    }

    @CommandHandler
    public void handle(RequestReadBackCommand command) {
        requireWorkspace(command.workspaceId());
        if (status != PublicationStatus.OUTCOME_UNKNOWN) {
            throw new HeraldRejection(ErrorCode.DECISION_NOT_ALLOWED,
                    "a read-back is only useful while the outcome is unknown; the publication is " + status);
        }
        apply(new PublicationReadBackRequestedEvent(publicationId, workspaceId, lastAttemptNo, command.requestedBy(),
                command.requestedAt()));
    }

    /** Rule 2: an attempt whose result never arrived is an unknown outcome, never a retry. */
    @DeadlineHandler(deadlineName = AttemptDeadline.NAME)
    public void on(AttemptDeadline deadline) {
        if (status != PublicationStatus.ATTEMPTING || deadline.attemptNo() != lastAttemptNo) {
            return;
        }
        log.warn("attempt {} of {} has no result by {}: outcome unknown", deadline.attemptNo(), publicationId,
                deadline.expiresAt());
        apply(new PublicationOutcomeUnknownEvent(publicationId, workspaceId, deadline.attemptNo(),
                UnknownCause.INTERRUPTED, "no result was recorded before the attempt's deadline; the process may"
                        + " have died or the call hung",
                AttemptTrace.nothingCameBack(null, null), deadline.expiresAt()));
    }

    private void requireWorkspace(WorkspaceId caller) {
        if (!workspaceId.equals(caller)) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no publication " + publicationId);
        }
    }

    /** The attempt has its result: its expiry deadline would only fire to find nothing to do. */
    private void cancelExpiry(DeadlineManager deadlineManager) {
        if (attemptExpiryId != null) {
            deadlineManager.cancelSchedule(AttemptDeadline.NAME, attemptExpiryId);
        }
    }

    private boolean isStale(int attemptNo, String what) {
        if (status == PublicationStatus.ATTEMPTING && attemptNo == lastAttemptNo) {
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

    /**
     * Only an unknown outcome starts a reconciliation (a read-back request needs one too), so until
     * there was one, attempt and success events say that none can be following this publication.
     */
    private MetaData reconciliationHint() {
        return earlierAttemptMayHaveLanded ? MetaData.emptyInstance() : NO_RECONCILIATION;
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    @EventSourcingHandler
    void on(PublicationRequestedEvent event) {
        publicationId = event.publicationId();
        workspaceId = event.workspaceId();
        channelId = event.channelId();
        contentHash = event.contentHash();
        scheduledAt = event.scheduledAt();
        status = PublicationStatus.REQUESTED;
    }

    @EventSourcingHandler
    void on(PublicationAttemptedEvent event) {
        lastAttemptNo = event.attemptNo();
        attemptExpiryId = event.expiryDeadlineId();
        status = PublicationStatus.ATTEMPTING;
    }

    @EventSourcingHandler
    void on(PublicationSucceededEvent event) {
        status = PublicationStatus.SUCCEEDED;
    }

    @EventSourcingHandler
    void on(PublicationFailedEvent event) {
        status = event.retryAt() != null ? PublicationStatus.RETRY_SCHEDULED : PublicationStatus.FAILED;
    }

    @EventSourcingHandler
    void on(PublicationOutcomeUnknownEvent event) {
        status = PublicationStatus.OUTCOME_UNKNOWN;
        earlierAttemptMayHaveLanded = true;
    }

    @EventSourcingHandler
    void on(PublicationReconciledEvent event) {
        switch (event.result()) {
            case FOUND -> status = PublicationStatus.SUCCEEDED;
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
    void on(PublicationAbandonedEvent event) {
        status = PublicationStatus.ABANDONED;
    }
}
