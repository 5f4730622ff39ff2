package io.herald.command.publication;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.publication.DecidePublicationCommand;
import io.herald.contracts.publication.OperatorDecision;
import io.herald.contracts.publication.OperatorDecisionRule;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationVanishDecidedEvent;
import io.herald.contracts.publication.PublicationVanishedEvent;
import io.herald.contracts.publication.PublicationVerificationDueEvent;
import io.herald.contracts.publication.PublicationVerifiedEvent;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.RecordVerificationCommand;
import io.herald.contracts.publication.VerificationLicence;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The verification after success (docs/api.md#verification-after-success): a created post whose
 * connection verifies is read again later; still there is {@code PublicationVerified}, gone is
 * {@code PublicationVanished}, and the publication stays SUCCEEDED either way. A vanished post
 * waits for an operator ({@code confirm_removed} or {@code republish}); nothing is written again
 * on Herald's own initiative. Only the verification the latest success made due is read, once it
 * has settled nothing more is.
 */
final class VerificationPolicy {

    private static final Logger log = LoggerFactory.getLogger(VerificationPolicy.class);

    private VerificationPolicy() {
    }

    /**
     * After a recorded success: the post is read again when the connection asked for it, the post
     * was created by this publication, and no further step (a first comment) is due; a later step's
     * success makes it due then.
     */
    static Optional<PublicationVerificationDueEvent> dueAfter(PublicationState state,
                                                              RecordAttemptSucceededCommand command) {
        PublicationRequestedEvent request = state.request();
        if (command.verifyAfter() == null || state.status() != PublicationStatus.SUCCEEDED || state.inFlight()
                || state.dueStep() != null || !request.action().createsPost() || state.steps().postRef() == null
                || state.vanishedAt() != null) {
            return Optional.empty();
        }
        return Optional.of(new PublicationVerificationDueEvent(request.publicationId(), request.workspaceId(),
                command.attemptNo(), command.recordedAt().plus(command.verifyAfter()), command.recordedAt()));
    }

    /** What to read, while the verification of attempt {@code attemptNo} is open; null when the read is moot. */
    static VerificationLicence licence(PublicationState state, int attemptNo) {
        PublicationRequestedEvent request = state.request();
        if (state.verificationOf() != attemptNo || attemptNo == 0 || state.status() != PublicationStatus.SUCCEEDED
                || state.steps().postRef() == null) {
            log.info("no verification of attempt {} of {}: status {}, open verification {}", attemptNo,
                    request.publicationId(), state.status(), state.verificationOf());
            return null;
        }
        return new VerificationLicence(request.publicationId(), request.workspaceId(), request.channelId(),
                request.calendarEntryId(), attemptNo, state.steps().postRef(), request.content());
    }

    /** What a read found, while its verification is still open; empty when it is stale. */
    static Optional<Object> recorded(PublicationState state, RecordVerificationCommand command) {
        if (licence(state, command.attemptNo()) == null) {
            return Optional.empty();
        }
        PublicationRequestedEvent request = state.request();
        return Optional.of(command.found()
                ? new PublicationVerifiedEvent(request.publicationId(), request.workspaceId(), command.providerRef(),
                        command.detail(), command.recordedAt())
                : new PublicationVanishedEvent(request.publicationId(), request.workspaceId(), command.providerRef(),
                        command.detail(), command.recordedAt()));
    }

    /** The decision is about a vanished post: it waits for one, or the decision is one of those. */
    static boolean aboutVanishedPost(PublicationState state, DecidePublicationCommand command) {
        return state.vanishPending() || command.decision() == OperatorDecision.CONFIRM_REMOVED
                || command.decision() == OperatorDecision.REPUBLISH;
    }

    /**
     * {@code confirm_removed} records that the removal stands; {@code republish} records the intent
     * to publish the post again, which the calendar carries out by sending the entry's next content
     * version (a new publication: this one's key is its version's). Either ends the decision.
     */
    static PublicationVanishDecidedEvent decided(PublicationState state, DecidePublicationCommand command) {
        OperatorDecision decision = command.decision();
        if (!state.vanishPending()) {
            throw new HeraldRejection(ErrorCode.DECISION_NOT_ALLOWED, decision.wireName()
                    + " is only allowed on a publication whose post vanished after success and waits for a decision");
        }
        if (!OperatorDecisionRule.onVanishedPost().contains(decision)) {
            throw new HeraldRejection(ErrorCode.DECISION_NOT_ALLOWED, decision.wireName()
                    + " is not allowed: the post vanished after success; confirm_removed or republish");
        }
        PublicationRequestedEvent request = state.request();
        return new PublicationVanishDecidedEvent(request.publicationId(), request.workspaceId(), decision,
                decision == OperatorDecision.REPUBLISH ? request.contentVersion() + 1 : null, command.operator(),
                command.note(), command.decidedAt());
    }
}
