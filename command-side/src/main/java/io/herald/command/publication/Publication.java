package io.herald.command.publication;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import io.herald.command.health.ConnectionHealth;
import io.herald.command.publishing.AutoReattemptPolicy;
import io.herald.command.publishing.ConnectionThrottle;
import io.herald.command.publishing.RetryPolicy;
import io.herald.command.publishing.SameKeyResendPolicy;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.DecidePublicationCommand;
import io.herald.contracts.publication.ExecutePublicationCommand;
import io.herald.contracts.publication.ExpireAttemptCommand;
import io.herald.contracts.publication.OperatorDecision;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReleasedEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.RecordAttemptAuthLostCommand;
import io.herald.contracts.publication.RecordAttemptFailedCommand;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.RecordAttemptVersionRetiredCommand;
import io.herald.contracts.publication.RecordDuplicateSignalCommand;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.herald.contracts.publication.RecordVerificationCommand;
import io.herald.contracts.publication.StartVerificationCommand;
import io.herald.contracts.publication.VerificationLicence;
import io.herald.contracts.publication.ReleasePublicationCommand;
import io.herald.contracts.publication.RequestPublicationCommand;
import io.herald.contracts.publication.RequestReadBackCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.contracts.publication.StartReadBackCommand;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.AggregateLifecycle;
import org.axonframework.modelling.command.AggregateMember;
import org.axonframework.modelling.command.CreationPolicy;
import org.axonframework.spring.stereotype.Aggregate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One publication of one content version to one channel, identified by its idempotency key.
 * Makes each decision over the facts its events established ({@link PublicationState}): whether an
 * attempt may start (write-ahead, rule 1; {@link AttemptStart}), when a failure is retried
 * ({@link AttemptOutcomePolicy}), that an interrupted attempt is an unknown outcome (2), that nothing
 * is written again after one without a NOT_FOUND read-back and a read before the re-attempt (3;
 * {@link ReadBackPolicy}), except a create sent again with the same key on a connection that cannot
 * make a second post from it ({@link AttemptOutcomePolicy#resendAfterUnknown}), that success is
 * final (4), and that stale results change nothing (5). What an operator decides is
 * {@link OperatorDecisionPolicy}; whether a post is read again after success, and what that found,
 * {@link VerificationPolicy}. Nothing outside mirrors this state: processors turn its events
 * into commands and calls.
 */
@Aggregate(cache = "publicationCache")
public class Publication {

    private static final Logger log = LoggerFactory.getLogger(Publication.class);
    static final String STALE_TRIGGER = "stale_trigger";
    static final String WAITING_FOR_ENTRY = "waiting_for_entry";
    static final String HELD = "connection_needs_reauth";
    /** The command name of {@link #handleNew}: a {@link RequestPublicationCommand} sent without a read first. */
    public static final String REQUEST_NEW = "io.herald.command.publication.RequestNewPublication";

    @AggregateIdentifier
    private PublicationId publicationId;
    /** Folds every event, after this class's own handler: Axon hands each event to the members too. */
    @AggregateMember
    private final PublicationState state = new PublicationState();

    protected Publication() {
        // required by Axon
    }

    /**
     * A request for a publication intake has not seen yet: a new instance, with no read of the
     * store. If the publication exists after all (a client's retry, another node's request, an
     * entry this node forgot), its first event meets the store's unique key, the command fails with
     * {@code AggregateStreamCreationException}, and intake sends it again as
     * {@link RequestPublicationCommand}, which loads the publication and answers as a replay.
     */
    @CommandHandler(commandName = REQUEST_NEW)
    @CreationPolicy(AggregateCreationPolicy.ALWAYS)
    public boolean handleNew(RequestPublicationCommand command) {
        return handle(command);
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    public boolean handle(RequestPublicationCommand command) {
        String requestedHash = command.content().hash();
        if (publicationId != null) {
            PublicationRequestedEvent earlier = state.request();
            if (!requestedHash.equals(earlier.contentHash())
                    || !Objects.equals(earlier.scheduledAt(), command.scheduledAt())) {
                throw new HeraldRejection(ErrorCode.IDEMPOTENCY_KEY_REUSED,
                        "publication " + publicationId + " was already requested with other content or schedule;"
                                + " publish a new content version instead");
            }
            return false;
        }
        apply(new PublicationRequestedEvent(command.publicationId(), command.workspaceId(),
                command.calendarEntryId(), command.contentVersion(), command.channelId(), command.channelType(),
                command.action(), command.content(), requestedHash, command.scheduledAt(), command.requestedAt(),
                command.requestedBy(), command.steps()));
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
                                  ConnectionHealth health, SameKeyResendPolicy resends) {
        AttemptStart attempt = new AttemptStart(state, command);
        Optional<AttemptDecision> refused = attempt.refusal(autoReattempt, retryPolicy, resends);
        if (refused.isEmpty() && !attempt.isComment()) {
            refused = awaitTurnAndCredentials(attempt, command, entryOrder, health);
        }
        if (refused.isPresent()) {
            return refused.get();
        }
        // a start at scheduledAt waits on a timer row; a request to execute earlier is the client's right
        Instant notBefore = throttle.notBefore(state.request().workspaceId(), state.request().channelId());
        if (command.startedAt().isBefore(notBefore)) {
            return attempt.waitUntil(notBefore);
        }
        PublicationStep step = attempt.nextWrite();
        if (attempt.mustReadFirst(step)) {
            return attempt.readFirst();
        }
        // the connection's budget: counted with the write-ahead, or the attempt waits until it allows one
        Optional<Instant> paced = throttle.take(state.request().workspaceId(), state.request().channelId(),
                state.request().channelType(), command.startedAt());
        if (paced.isPresent()) {
            return attempt.waitUntil(paced.get());
        }
        ContentMedia next = step.preparesPost() ? state.steps().nextUpload() : null;
        MediaId image = next != null ? next.mediaId() : null;
        apply(attempt.attempted(step, image));
        return attempt.started(step, image);
    }

    /**
     * Before a post step: an update or delete takes its turn in the entry's order, and a connection
     * that needs new credentials gets no call (the publication is held until it has them).
     */
    private Optional<AttemptDecision> awaitTurnAndCredentials(AttemptStart attempt, StartAttemptCommand command,
                                                              EntryOrder entryOrder, ConnectionHealth health) {
        PublicationRequestedEvent request = state.request();
        if (request.action().actsOnPost() && state.targetRef() == null) {
            EntryTurn turn = EntryTurn.of(request, entryOrder.turnOf(publicationId), command.startedAt());
            if (turn.event() != null) {
                apply(turn.event());
            }
            if (turn.refusal() != null) {
                return Optional.of(turn.refusal());
            }
        }
        Optional<ConnectionHealth.Hold> hold = health.hold(request.workspaceId(), request.channelId(),
                request.channelType());
        if (hold.isEmpty()) {
            return Optional.empty();
        }
        if (attempt.isSameKeyResend()) {
            // an unknown create waits for its read-back, not for new credentials: nothing is held
            return Optional.of(attempt.heldRefusal(hold.get()));
        }
        apply(attempt.held(hold.get()));
        return Optional.of(attempt.heldRefusal(hold.get()));
    }

    /** The provider refused the attempt for its credentials: it did not execute, and it waits. */
    @CommandHandler
    public boolean handle(RecordAttemptAuthLostCommand command) {
        if (AttemptOutcomePolicy.isStale(state, command.attemptNo(), "credentials refusal")) {
            return false;
        }
        apply(AttemptOutcomePolicy.authLost(state, command));
        return true;
    }

    /** The provider no longer serves the API version Herald sent: the attempt did not execute, and it waits. */
    @CommandHandler
    public boolean handle(RecordAttemptVersionRetiredCommand command) {
        if (AttemptOutcomePolicy.isStale(state, command.attemptNo(), "API version refusal")) {
            return false;
        }
        apply(AttemptOutcomePolicy.versionRetired(state, command));
        return true;
    }

    /** @return whether the publication was held and is now due again */
    @CommandHandler
    public boolean handle(ReleasePublicationCommand command) {
        if (state.status() != PublicationStatus.HELD) {
            return false;
        }
        apply(new PublicationReleasedEvent(publicationId, state.request().workspaceId(), state.request().channelId(),
                state.nextAttemptNo(), command.releasedAt()));
        return true;
    }

    @CommandHandler
    public boolean handle(RecordAttemptSucceededCommand command) {
        if (AttemptOutcomePolicy.isStale(state, command.attemptNo(), "success")) {
            return false;
        }
        apply(new PublicationSucceededEvent(publicationId, state.request().workspaceId(), command.attemptNo(),
                command.providerRef(), command.trace(), command.recordedAt(), command.note()));
        nextStepIfDue(command.recordedAt());
        VerificationPolicy.dueAfter(state, command).ifPresent(AggregateLifecycle::apply);
        return true;
    }

    /** @return when the attempt is retried, or null: the failure is final (or the result stale) */
    @CommandHandler
    public Instant handle(RecordAttemptFailedCommand command, RetryPolicy retryPolicy) {
        if (AttemptOutcomePolicy.isStale(state, command.attemptNo(), "failure")) {
            return null;
        }
        PublicationFailedEvent failed = AttemptOutcomePolicy.failed(state, command, retryPolicy);
        apply(failed);
        return failed.retryAt();
    }

    @CommandHandler
    public boolean handle(RecordAttemptOutcomeUnknownCommand command, RetryPolicy retryPolicy,
                          SameKeyResendPolicy resends) {
        if (AttemptOutcomePolicy.isStale(state, command.attemptNo(), "unknown outcome")) {
            return false;
        }
        apply(new PublicationOutcomeUnknownEvent(publicationId, state.request().workspaceId(), command.attemptNo(),
                command.cause(), command.detail(), command.trace(), command.recordedAt()));
        uploadAgainIfAllowed(retryPolicy, command.recordedAt());
        resendIfSafe(resends, retryPolicy, command.recordedAt());
        return true;
    }

    /** Rule 2: an attempt whose result never arrived is an unknown outcome, never a retry. */
    @CommandHandler
    public boolean handle(ExpireAttemptCommand command, RetryPolicy retryPolicy, SameKeyResendPolicy resends) {
        if (!state.inFlight() || command.attemptNo() != state.lastAttemptNo()) {
            return false;
        }
        log.warn("attempt {} of {} has no result by {}: outcome unknown", command.attemptNo(), publicationId,
                state.lastAttemptExpiresAt());
        apply(AttemptOutcomePolicy.expired(state));
        uploadAgainIfAllowed(retryPolicy, state.lastAttemptExpiresAt());
        resendIfSafe(resends, retryPolicy, state.lastAttemptExpiresAt());
        return true;
    }

    @CommandHandler
    public boolean handle(RecordDuplicateSignalCommand command) {
        if (AttemptOutcomePolicy.isStale(state, command.attemptNo(), "duplicate signal")) {
            return false;
        }
        apply(AttemptOutcomePolicy.duplicate(state, command));
        nextStepIfDue(command.recordedAt());
        return true;
    }

    @CommandHandler
    public boolean handle(RecordReconciliationCommand command) {
        if (!ReadBackPolicy.settles(state, command)) {
            return false;
        }
        boolean aboutComment = state.lastStepIsComment();
        apply(ReadBackPolicy.reconciled(state, command));
        if (!aboutComment) {
            nextStepIfDue(command.recordedAt());
        }
        return true;
    }

    /** A read-back is worth making only while the attempt it is about still has an unknown outcome. */
    @CommandHandler
    public ReadBackLicence handle(StartReadBackCommand command) {
        return ReadBackPolicy.licence(state, command.attemptNo());
    }

    /** A verification after success is worth making only while it is the open one. */
    @CommandHandler
    public VerificationLicence handle(StartVerificationCommand command) {
        return VerificationPolicy.licence(state, command.attemptNo());
    }

    /** @return whether the read settled the open verification (false: stale) */
    @CommandHandler
    public boolean handle(RecordVerificationCommand command) {
        Optional<Object> settled = VerificationPolicy.recorded(state, command);
        settled.ifPresent(AggregateLifecycle::apply);
        return settled.isPresent();
    }

    @CommandHandler
    public void handle(RequestReadBackCommand command) {
        requireWorkspace(command.workspaceId());
        apply(ReadBackPolicy.requested(state, command));
    }

    /** The client asks to run it (again), docs/api.md#publications; a retry already due changes nothing. */
    @CommandHandler
    public void handle(ExecutePublicationCommand command) {
        requireWorkspace(command.workspaceId());
        AttemptStart.executeNow(state, command).ifPresent(AggregateLifecycle::apply);
    }

    @CommandHandler
    public void handle(DecidePublicationCommand command) {
        requireWorkspace(command.workspaceId());
        if (VerificationPolicy.aboutVanishedPost(state, command)) {
            apply(VerificationPolicy.decided(state, command));
            return;
        }
        if (OperatorDecisionPolicy.aboutComment(state)
                || OperatorDecisionPolicy.givesUpCommentOfUnverifiedPost(state, command)) {
            apply(OperatorDecisionPolicy.onComment(state, command));
            return;
        }
        apply(OperatorDecisionPolicy.onPost(state, command));
        // a post that stands on an operator's word alone gets no first comment until it is read back
        if (command.decision() == OperatorDecision.CONFIRM_PUBLISHED && !state.postUnverified()) {
            nextStepIfDue(command.decidedAt());
        }
    }

    private void nextStepIfDue(Instant at) {
        AttemptOutcomePolicy.nextStepDue(state, at).ifPresent(AggregateLifecycle::apply);
    }

    private void uploadAgainIfAllowed(RetryPolicy retryPolicy, Instant at) {
        AttemptOutcomePolicy.afterUnknownUpload(state, retryPolicy, at).ifPresent(AggregateLifecycle::apply);
    }

    /** The read-back is still scheduled: it settles the outcome if the re-send never starts. */
    private void resendIfSafe(SameKeyResendPolicy resends, RetryPolicy retryPolicy, Instant at) {
        AttemptOutcomePolicy.resendAfterUnknown(state, resends, retryPolicy, at).ifPresent(AggregateLifecycle::apply);
    }

    private void requireWorkspace(WorkspaceId caller) {
        if (!state.request().workspaceId().equals(caller)) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no publication " + publicationId);
        }
    }

    @EventSourcingHandler
    void on(PublicationRequestedEvent event) {
        publicationId = event.publicationId();
    }
}
