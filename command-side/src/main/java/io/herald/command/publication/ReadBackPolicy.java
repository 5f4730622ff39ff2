package io.herald.command.publication;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.PublicationReadBackRequestedEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.herald.contracts.publication.RequestReadBackCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which automatic read-backs settle anything: one about the latest attempt, while its outcome
 * (the post's, or the comment's once the post stands) is unknown; and a late find, which wins
 * even after the publication moved on to NOT_EXECUTED or a retry, since the post exists after all.
 */
final class ReadBackPolicy {

    private static final Logger log = LoggerFactory.getLogger(ReadBackPolicy.class);

    private ReadBackPolicy() {
    }

    /** What to look for, while the attempt's outcome is unknown; null when a read-back would settle nothing. */
    static ReadBackLicence licence(PublicationState state, int attemptNo) {
        if (!state.lastAttemptUnknown() || attemptNo != state.lastAttemptNo()) {
            log.info("no read-back of attempt {} of {}: status {}, latest attempt {}", attemptNo,
                    state.request().publicationId(), state.status(), state.lastAttemptNo());
            return null;
        }
        return state.readBackLicence();
    }

    /** Someone asks for a read-back now; refused unless the outcome is unknown. */
    static PublicationReadBackRequestedEvent requested(PublicationState state, RequestReadBackCommand command) {
        if (!state.lastAttemptUnknown()) {
            throw new HeraldRejection(ErrorCode.DECISION_NOT_ALLOWED,
                    "a read-back is only useful while the outcome is unknown; the publication is " + state.status());
        }
        return new PublicationReadBackRequestedEvent(state.request().publicationId(), state.request().workspaceId(),
                state.lastAttemptNo(), command.requestedBy(), command.requestedAt());
    }

    static boolean settles(PublicationState state, RecordReconciliationCommand command) {
        PublicationId publicationId = state.request().publicationId();
        if (command.attemptNo() != state.lastAttemptNo()) {
            log.info("ignoring read-back for attempt {} of {}: the latest attempt is {}",
                    command.attemptNo(), publicationId, state.lastAttemptNo());
            return false;
        }
        boolean found = command.result() == ReconciliationResult.FOUND;
        if (state.lastStepIsComment()) {
            PublicationSteps.CommentState comment = state.steps().comment();
            boolean lateFind = found && (comment == PublicationSteps.CommentState.NOT_EXECUTED
                    || comment == PublicationSteps.CommentState.RETRY_SCHEDULED)
                    && state.steps().commentMayHaveLanded();
            if (comment != PublicationSteps.CommentState.OUTCOME_UNKNOWN && !lateFind) {
                log.info("ignoring {} read-back of the comment of {}: it is {}", command.result(), publicationId,
                        comment);
                return false;
            }
            return true;
        }
        PublicationStatus status = state.status();
        boolean lateFind = found && (status == PublicationStatus.NOT_EXECUTED
                || status == PublicationStatus.RETRY_SCHEDULED) && state.earlierAttemptMayHaveLanded();
        if (status != PublicationStatus.OUTCOME_UNKNOWN && !lateFind) {
            log.info("ignoring {} read-back for {}: status is {}", command.result(), publicationId, status);
            return false;
        }
        return true;
    }

    static PublicationReconciledEvent reconciled(PublicationState state, RecordReconciliationCommand command) {
        PublicationRequestedEvent request = state.request();
        return new PublicationReconciledEvent(request.publicationId(), request.workspaceId(), command.attemptNo(),
                command.result(), ReconciliationSource.AUTOMATIC, command.providerRef(), command.detail(), null, null,
                command.recordedAt());
    }
}
