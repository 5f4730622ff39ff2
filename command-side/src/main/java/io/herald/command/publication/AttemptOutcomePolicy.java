package io.herald.command.publication;

import io.herald.command.health.ConnectionHealth;
import io.herald.command.publishing.RetryPolicy;
import io.herald.command.publishing.SameKeyResendPolicy;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationHeldEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationResendDueEvent;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.RecordAttemptAuthLostCommand;
import io.herald.contracts.publication.RecordAttemptFailedCommand;
import io.herald.contracts.publication.RecordAttemptVersionRetiredCommand;
import io.herald.contracts.publication.RecordDuplicateSignalCommand;
import io.herald.contracts.publication.UnknownCause;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a recorded result of an attempt leads to, over the publication's state: whether it is
 * about the attempt in flight at all (rule 5), when a failure is retried, which step is due next,
 * and what a credentials refusal, an unknown upload or a duplicate refusal is recorded as.
 */
final class AttemptOutcomePolicy {

    private static final Logger log = LoggerFactory.getLogger(AttemptOutcomePolicy.class);

    private AttemptOutcomePolicy() {
    }

    /** A result for an attempt that is not the one in flight changes nothing. */
    static boolean isStale(PublicationState state, int attemptNo, String what) {
        if (state.inFlight() && attemptNo == state.lastAttemptNo()) {
            return false;
        }
        log.info("ignoring {} for attempt {} of {}: status {}, latest attempt {}", what, attemptNo,
                state.request().publicationId(), state.status(), state.lastAttemptNo());
        return true;
    }

    /** The failure, with when the retry policy retries it (null: final), counting failures of its kind. */
    static PublicationFailedEvent failed(PublicationState state, RecordAttemptFailedCommand command,
                                         RetryPolicy retryPolicy) {
        PublicationRequestedEvent request = state.request();
        int failuresOfKind = 1 + state.failuresBefore(command.kind());
        Instant retryAt = retryPolicy.retryAt(request.channelType(), command.kind(), failuresOfKind,
                command.providerDelay(), command.recordedAt());
        return new PublicationFailedEvent(request.publicationId(), request.workspaceId(), command.attemptNo(),
                command.kind(), command.errorCode(), command.detail(), command.trace(), retryAt, command.recordedAt());
    }

    /**
     * The post's attempt is held until the connection has new credentials; a comment's, once the
     * post exists and stays SUCCEEDED, is a failure that waits for an operator.
     */
    static Object authLost(PublicationState state, RecordAttemptAuthLostCommand command) {
        return heldOrCommentFailed(state, command.attemptNo(), command.providerCode(),
                ConnectionHealth.heldReason(command.reason()), command.trace(), command.recordedAt());
    }

    /**
     * The same for a provider that no longer serves the API version sent: held (reason code
     * {@code api_version}) until another version is configured.
     */
    static Object versionRetired(PublicationState state, RecordAttemptVersionRetiredCommand command) {
        return heldOrCommentFailed(state, command.attemptNo(), ConnectionHealth.API_VERSION, command.reason(),
                command.trace(), command.recordedAt());
    }

    private static Object heldOrCommentFailed(PublicationState state, int attemptNo, String code, String reason,
                                              AttemptTrace trace, Instant at) {
        PublicationRequestedEvent request = state.request();
        if (state.lastStepIsComment()) {
            return new PublicationFailedEvent(request.publicationId(), request.workspaceId(), attemptNo,
                    FailureKind.REJECTED, code, reason, trace, null, at);
        }
        return new PublicationHeldEvent(request.publicationId(), request.workspaceId(), request.channelId(),
                attemptNo, reason, code, trace, request.requestedAt(), at);
    }

    /**
     * After an upload, the next upload or the post; after the post, its first comment. Each is a
     * new attempt the dispatcher asks for; the event makes it due durably (its token, not memory).
     */
    static Optional<PublicationNextStepDueEvent> nextStepDue(PublicationState state, Instant at) {
        PublicationStep next = null;
        if (state.status() == PublicationStatus.SUCCEEDED) {
            if (state.steps().commentDueAfterPost()) {
                next = state.steps().followUp();
            }
        } else if (state.lastStep().preparesPost()) {
            next = state.steps().nextTowardsPost();
        }
        return next == null ? Optional.empty() : Optional.of(new PublicationNextStepDueEvent(
                state.request().publicationId(), state.request().workspaceId(), state.nextAttemptNo(), next, at));
    }

    /**
     * An upload no post uses is invisible, so an unknown one is uploaded again, as often as the
     * retry policy allows requests that never left; past that it is FAILED for an operator.
     */
    static Optional<Object> afterUnknownUpload(PublicationState state, RetryPolicy retryPolicy, Instant at) {
        if (!state.lastStep().isRepeatable()) {
            return Optional.empty();
        }
        PublicationRequestedEvent request = state.request();
        int unknowns = state.steps().uploadUnknowns();
        if (retryPolicy.retryAt(request.channelType(), FailureKind.NOT_SENT, unknowns, null, at) != null) {
            return Optional.of(new PublicationNextStepDueEvent(request.publicationId(), request.workspaceId(),
                    state.nextAttemptNo(), state.lastStep(), at));
        }
        log.warn("upload {} of {} stayed unknown {} times: an operator decides", state.lastMediaId(),
                request.publicationId(), unknowns);
        return Optional.of(new PublicationFailedEvent(request.publicationId(), request.workspaceId(),
                state.lastAttemptNo(), FailureKind.REJECTED, "upload_outcome_unknown", "the upload of "
                        + state.lastMediaId() + " had no clear answer " + unknowns
                        + " times; nothing was posted. Re-attempt to upload again.",
                AttemptTrace.nothingCameBack(null, null), null, at));
    }

    /**
     * Rule 3's one exception (docs/architecture.md#retry-safety): an unknown create on a connection whose
     * provider cannot make a second post from the same request ({@code client_id},
     * {@code provider_key}) is sent again at once with the same record id or key, within the
     * channel's bounds; otherwise (and past them) it is read back, as every other unknown create.
     */
    static Optional<PublicationResendDueEvent> resendAfterUnknown(PublicationState state, SameKeyResendPolicy resends,
                                                                  RetryPolicy retryPolicy, Instant at) {
        PublicationRequestedEvent request = state.request();
        if (request.action().actsOnPost() || state.lastStep() != PublicationStep.postStepOf(request.action())
                || state.status() != PublicationStatus.OUTCOME_UNKNOWN) {
            return Optional.empty();
        }
        int resendNo = state.sameKeyResends() + 1;
        Instant originalStartedAt = state.resendChainStartedAt();
        return resends.allows(request.channelType(), resendNo, originalStartedAt, at, retryPolicy).map(licence -> {
            log.info("create {} of {} has an unknown outcome; its channel is {}: sending it again with key {}",
                    state.lastAttemptNo(), request.publicationId(), licence.retrySafety().wireName(),
                    state.lastIdempotencyKey());
            return new PublicationResendDueEvent(request.publicationId(), request.workspaceId(),
                    state.lastAttemptNo(), state.nextAttemptNo(), state.lastStep(), licence.retrySafety(),
                    state.lastIdempotencyKey(), originalStartedAt, licence.until(originalStartedAt), resendNo, at);
        });
    }

    /** Rule 2: no result by the attempt's deadline; the process may have died or the call hung. */
    static PublicationOutcomeUnknownEvent expired(PublicationState state) {
        return new PublicationOutcomeUnknownEvent(state.request().publicationId(), state.request().workspaceId(),
                state.lastAttemptNo(), UnknownCause.INTERRUPTED, "no result was recorded before the attempt's"
                        + " deadline; the process may have died or the call hung",
                AttemptTrace.nothingCameBack(null, null), state.lastAttemptExpiresAt());
    }

    /**
     * A duplicate refusal proves an earlier attempt landed only if an earlier attempt may have
     * executed; otherwise the text was already there, and an operator decides.
     */
    static Object duplicate(PublicationState state, RecordDuplicateSignalCommand command) {
        PublicationRequestedEvent request = state.request();
        if (state.earlierAttemptMayHaveLanded() && state.lastStep().makesPost()) {
            return new PublicationReconciledEvent(request.publicationId(), request.workspaceId(), command.attemptNo(),
                    ReconciliationResult.FOUND, ReconciliationSource.PROVIDER_DUPLICATE_SIGNAL,
                    command.earlierPost(), command.detail(), null, null, command.recordedAt());
        }
        return new PublicationFailedEvent(request.publicationId(), request.workspaceId(), command.attemptNo(),
                FailureKind.REJECTED, "duplicate_content",
                "the provider refused the post as a duplicate of one that already exists (perhaps posted by"
                        + " hand): " + command.detail(),
                command.trace(), null, command.recordedAt());
    }
}
