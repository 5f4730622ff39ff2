package io.herald.command.publication;

import io.herald.command.health.ConnectionHealth;
import io.herald.command.publishing.AutoReattemptPolicy;
import io.herald.command.publishing.RetryPolicy;
import io.herald.command.publishing.SameKeyResendPolicy;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptDecision.Verdict;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.ExecutePublicationCommand;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationHeldEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.StartAttemptCommand;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The decisions of one {@link StartAttemptCommand} over the publication's state: whether an attempt
 * may start at all, whether it is held for the connection's credentials, which provider write is
 * next, whether something must be read first, and the attempt's event and licence. Reads the state
 * as it is when asked, so a decision made after the aggregate applied an event (the entry's
 * target, say) carries what that event changed. Also what a client's execute makes due.
 */
final class AttemptStart {

    private static final Logger log = LoggerFactory.getLogger(AttemptStart.class);

    private final PublicationState state;
    private final PublicationRequestedEvent request;
    private final StartAttemptCommand command;
    private final int attemptNo;
    /** The post exists: only the step after it may still be written, once (unless NOT_FOUND between). */
    private final boolean comment;

    AttemptStart(PublicationState state, StartAttemptCommand command) {
        this.state = state;
        this.request = state.request();
        this.command = command;
        this.attemptNo = state.nextAttemptNo();
        this.comment = state.status() == PublicationStatus.SUCCEEDED;
    }

    boolean isComment() {
        return comment;
    }

    /** The trigger asks to send an unknown create again with the same key (rule 3's one exception). */
    boolean isSameKeyResend() {
        return command.trigger() == AttemptTrigger.RESEND_SAME_KEY;
    }

    /** Every refusal is a returned decision, not an exception: see {@link Publication}'s handler. */
    Optional<AttemptDecision> refusal(AutoReattemptPolicy autoReattempt, RetryPolicy retryPolicy,
                                      SameKeyResendPolicy resends) {
        if (command.expectedAttemptNo() != 0 && command.expectedAttemptNo() != attemptNo) {
            log.info("ignoring a trigger for attempt {} of {}: the next attempt is {}", command.expectedAttemptNo(),
                    request.publicationId(), attemptNo);
            return Optional.of(AttemptDecision.refused(request.publicationId(), Publication.STALE_TRIGGER, "attempt "
                    + command.expectedAttemptNo() + " was already due before; the next attempt is " + attemptNo));
        }
        if (command.trigger() == AttemptTrigger.RESEND_SAME_KEY
                && (comment || state.status() != PublicationStatus.OUTCOME_UNKNOWN)) {
            // only an unknown create is ever sent again with the same key
            return Optional.of(refused(refusalToRun(state)));
        }
        if (comment) {
            boolean autoAllowed = command.trigger() == AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND
                    && autoReattempt.reattemptsAfterNotFound(request.workspaceId(), request.channelId());
            return state.steps().commentStartable(command.trigger(), autoAllowed) ? Optional.empty()
                    : Optional.of(refused(refusalToRun(state)));
        }
        switch (state.status()) {
            case REQUESTED, RETRY_SCHEDULED -> { }
            // between two steps: the previous one ended and the next is due
            case ATTEMPTING -> {
                if (state.inFlight()) {
                    return Optional.of(refused(refusalToRun(state)));
                }
            }
            case OUTCOME_UNKNOWN -> {
                Optional<String> notResent = sameKeyResendRefusal(resends, retryPolicy);
                if (notResent.isPresent()) {
                    log.atLevel(isSameKeyResend() ? Level.WARN : Level.DEBUG).log(
                            "no re-send of {} without a read-back: {}", request.publicationId(), notResent.get());
                    return Optional.of(refused(refusalToRun(state)));
                }
            }
            case NOT_EXECUTED -> {
                if (mayResendConvergingStep(retryPolicy)) {
                    log.info("the read-back of {} showed its {} missing: sending it again", request.publicationId(),
                            request.action().wireName());
                } else if (request.action().actsOnPost() // past the retry policy's bound, a converging step waits too
                        || command.trigger() != AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND
                        || state.lastNotFoundSource() != ReconciliationSource.AUTOMATIC
                        || !autoReattempt.reattemptsAfterNotFound(request.workspaceId(), request.channelId())) {
                    log.info("publication {} was not found after an unknown outcome; an operator decides whether to"
                            + " re-attempt", request.publicationId());
                    return Optional.of(AttemptDecision.refused(request.publicationId(),
                            ErrorCode.PUBLICATION_NOT_EXECUTABLE.code(),
                            "publication " + request.publicationId() + " awaits an operator's decision"));
                }
            }
            default -> {
                return Optional.of(refused(refusalToRun(state)));
            }
        }
        return Optional.empty();
    }

    /**
     * Rule 3's one exception: the re-send the publication made due after an unknown create, on a
     * connection still {@code client_id} or {@code provider_key}, within its window, carrying the
     * key the unknown attempt carried. Empty when it may start, else why not.
     */
    private Optional<String> sameKeyResendRefusal(SameKeyResendPolicy resends, RetryPolicy retryPolicy) {
        if (command.trigger() != AttemptTrigger.RESEND_SAME_KEY || !state.sameKeyResendDue()) {
            return Optional.of("no re-send with the same key is due");
        }
        if (resends.allows(request.channelType(), state.sameKeyResends() + 1, state.resendChainStartedAt(),
                command.startedAt(), retryPolicy).isEmpty()) {
            return Optional.of("the channel's retry safety or window no longer allows one at " + command.startedAt());
        }
        if (!request.publicationId().value().equals(state.lastIdempotencyKey())) {
            // the adapter derives its record id or key from the publication: another key would be another post
            return Optional.of("the unknown attempt carried key " + state.lastIdempotencyKey()
                    + ", not the publication's");
        }
        return Optional.empty();
    }

    /** Converging steps (update, delete) are sent again after an automatic NOT_FOUND, within the retry policy. */
    private boolean mayResendConvergingStep(RetryPolicy retryPolicy) {
        return request.action().actsOnPost() && command.trigger() == AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND
                && state.lastNotFoundSource() == ReconciliationSource.AUTOMATIC
                && retryPolicy.mayResend(request.channelType(), state.convergingResends() + 1);
    }

    /** Why nothing may be written now, for a command that asked to. */
    static HeraldRejection refusalToRun(PublicationState state) {
        PublicationId publicationId = state.request().publicationId();
        return switch (state.status()) {
            case SUCCEEDED -> new HeraldRejection(ErrorCode.PUBLICATION_ALREADY_SUCCEEDED,
                    "publication " + publicationId + " already succeeded; it is never executed again");
            case ATTEMPTING -> new HeraldRejection(ErrorCode.ATTEMPT_IN_FLIGHT,
                    "attempt " + state.lastAttemptNo() + " of publication " + publicationId + " is still in flight");
            case OUTCOME_UNKNOWN -> new HeraldRejection(ErrorCode.OUTCOME_UNKNOWN_REQUIRES_DECISION,
                    "the outcome of attempt " + state.lastAttemptNo() + " is unknown; it must be read back or decided"
                            + " by an operator before anything is written again");
            case ABANDONED -> new HeraldRejection(ErrorCode.PUBLICATION_NOT_EXECUTABLE,
                    "publication " + publicationId + " was abandoned");
            default -> new HeraldRejection(ErrorCode.PUBLICATION_NOT_EXECUTABLE,
                    "publication " + publicationId + " cannot start an attempt while " + state.status());
        };
    }

    /**
     * A client's request to execute now: an attempt is made due unless one already is; after a
     * NOT_FOUND read-back only an operator re-attempts.
     */
    static Optional<PublicationExecutionRequestedEvent> executeNow(PublicationState state,
                                                                  ExecutePublicationCommand command) {
        PublicationRequestedEvent request = state.request();
        return switch (state.status()) {
            case REQUESTED, FAILED -> Optional.of(new PublicationExecutionRequestedEvent(request.publicationId(),
                    request.workspaceId(), AttemptTrigger.EXECUTE_REQUESTED, command.requestedBy(), null,
                    command.requestedAt(), state.nextAttemptNo()));
            case RETRY_SCHEDULED -> Optional.empty();
            case NOT_EXECUTED -> throw new HeraldRejection(ErrorCode.PUBLICATION_NOT_EXECUTABLE,
                    "publication " + request.publicationId() + " was not found at the provider after an unknown"
                            + " outcome; an operator decides whether to re-attempt");
            default -> throw refusalToRun(state);
        };
    }

    /**
     * The step after the post once the post stands; before the post, the step made due (a
     * repeatable one sent again after an unknown outcome is the same kind), else each image without
     * a recorded upload, in the content's order (a delete plans none), then the action's post step.
     */
    PublicationStep nextWrite() {
        if (comment) {
            return state.steps().followUp();
        }
        PublicationStep due = state.dueStep();
        return due != null && !due.followsPost() ? due : state.steps().nextTowardsPost();
    }

    /** Rule 3: after an unknown outcome, look for what it may have left before writing again. */
    boolean mustReadFirst(PublicationStep step) {
        if (command.readBeforeCreateDone() || !step.readsBackBeforeResend()) {
            // a repeatable step is simply sent again; nothing is read before it
            return false;
        }
        if (!step.followsPost() && command.trigger() == AttemptTrigger.RESEND_SAME_KEY) {
            // the provider cannot make a second post from the same key: nothing to look for first
            return false;
        }
        if (step.followsPost()) {
            return state.steps().commentMayHaveLanded();
        }
        // a converging step is sent again only after a read-back showed its change missing: no read first
        return state.earlierAttemptMayHaveLanded() && !step.converges();
    }

    /** The connection needs new credentials: held before any call, until they are renewed. */
    PublicationHeldEvent held(String lostReason) {
        return held(new ConnectionHealth.Hold(ConnectionHealth.heldReason(lostReason), ConnectionHealth.NEEDS_REAUTH));
    }

    /**
     * Nothing may be sent on the connection (new credentials, or another API version, needed): held
     * before any call. A hold for the API version carries its code where a provider's would be.
     */
    PublicationHeldEvent held(ConnectionHealth.Hold hold) {
        return new PublicationHeldEvent(request.publicationId(), request.workspaceId(), request.channelId(), 0,
                hold.heldReason(), ConnectionHealth.API_VERSION.equals(hold.code()) ? hold.code() : null, null,
                request.requestedAt(), command.startedAt());
    }

    AttemptDecision heldRefusal() {
        return AttemptDecision.refused(request.publicationId(), Publication.HELD, "channel " + request.channelId()
                + " needs new credentials; the publication is held");
    }

    AttemptDecision heldRefusal(ConnectionHealth.Hold hold) {
        return ConnectionHealth.NEEDS_REAUTH.equals(hold.code()) ? heldRefusal()
                : AttemptDecision.refused(request.publicationId(), hold.code(), "channel " + request.channelId()
                        + ": " + hold.heldReason() + "; the publication is held");
    }

    AttemptDecision waitUntil(Instant notBefore) {
        return decision(Verdict.WAIT, null, notBefore);
    }

    AttemptDecision readFirst() {
        return decision(Verdict.READ_FIRST, state.readBackLicence(), null);
    }

    /** Write-ahead: the attempt's record, applied before anyone calls the provider. */
    PublicationAttemptedEvent attempted(PublicationStep step, MediaId mediaId) {
        Instant expiresAt = command.startedAt().plus(command.attemptTimeout());
        return new PublicationAttemptedEvent(request.publicationId(), request.workspaceId(), request.channelId(),
                attemptNo, command.trigger(), idempotencyKey(), request.contentHash(),
                command.startedAt(), expiresAt, null, step, mediaId);
    }

    /** A re-send carries the key of the attempt it repeats (refused above unless that is the publication's). */
    private String idempotencyKey() {
        return command.trigger() == AttemptTrigger.RESEND_SAME_KEY ? state.lastIdempotencyKey()
                : request.publicationId().value();
    }

    /** The licence for the provider call the attempt makes. */
    AttemptDecision started(PublicationStep step, MediaId mediaId) {
        return new AttemptDecision(Verdict.START, request.publicationId(), request.workspaceId(), request.channelId(),
                request.channelType(), attemptNo, command.trigger(), request.action(), request.content(),
                request.scheduledAt(), null, null, null, null, state.targetRef(), step, mediaId,
                step.makesPost() ? state.steps().uploads() : List.of(),
                step.followsPost() ? state.steps().postRef() : null, request.requestedAt());
    }

    private AttemptDecision decision(Verdict verdict, ReadBackLicence readFirst, Instant notBefore) {
        return new AttemptDecision(verdict, request.publicationId(), request.workspaceId(), request.channelId(),
                request.channelType(), attemptNo, command.trigger(), request.action(), request.content(),
                request.scheduledAt(), readFirst, notBefore, null, null, state.targetRef());
    }

    private AttemptDecision refused(HeraldRejection refusal) {
        return AttemptDecision.refused(request.publicationId(), refusal.code().code(), refusal.getMessage());
    }
}
