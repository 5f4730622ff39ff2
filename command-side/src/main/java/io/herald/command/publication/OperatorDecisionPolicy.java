package io.herald.command.publication;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.DecidePublicationCommand;
import io.herald.contracts.publication.OperatorDecision;
import io.herald.contracts.publication.OperatorDecisionRule;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationStepSkippedEvent;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;

/**
 * What an operator's decision (docs/api.md#operators-and-auditors) records, and in which states each is
 * allowed: about the post, or, once the post stands and its first comment waits for an operator,
 * about that comment ({@code decisionStep: first_comment}). A decision not allowed is refused with
 * {@code decision_not_allowed} and a hint at what would be. Which decisions each case accepts is
 * {@link OperatorDecisionRule}'s, the rule the publication view lists as {@code allowedDecisions}.
 */
final class OperatorDecisionPolicy {

    private OperatorDecisionPolicy() {
    }

    /** The post stands; the decision is about its first comment. */
    static boolean aboutComment(PublicationState state) {
        return state.status() == PublicationStatus.SUCCEEDED && state.steps().commentNeedsDecision();
    }

    /**
     * The post stands on an operator's word alone (the channel could not read it back) and its first
     * comment waits for a confirmation Herald can read: an operator may give the comment up. Where
     * the channel can never read (LinkedIn without its read scope) nothing else would end it.
     */
    static boolean givesUpCommentOfUnverifiedPost(PublicationState state, DecidePublicationCommand command) {
        return OperatorDecisionRule.onCommentOfUnverifiedPost().contains(command.decision())
                && state.status() == PublicationStatus.SUCCEEDED
                && state.postUnverified() && state.steps().comment() == PublicationSteps.CommentState.PENDING;
    }

    static Object onPost(PublicationState state, DecidePublicationCommand command) {
        PublicationRequestedEvent request = state.request();
        return switch (command.decision()) {
            case CONFIRM_PUBLISHED -> {
                boolean reconfirm = state.status() == PublicationStatus.SUCCEEDED && state.postUnverified();
                requireDecidable(state, command);
                ProviderRef ref = command.providerRef();
                if (ref == null || (isBlank(ref.id()) && isBlank(ref.url()))) {
                    throw new HeraldRejection(ErrorCode.VALIDATION_FAILED,
                            "confirm_published needs the post's id or URL at the provider");
                }
                Boolean verified = verification(state, command, reconfirm);
                yield new PublicationReconciledEvent(request.publicationId(), request.workspaceId(),
                        state.lastAttemptNo(), ReconciliationResult.FOUND, ReconciliationSource.OPERATOR, ref,
                        (reconfirm ? "confirmed again by " : "confirmed published by ") + command.operator()
                                + (Boolean.FALSE.equals(verified) ? "; the channel could not read the post back" : ""),
                        command.operator(), command.note(), command.decidedAt(), verified);
            }
            case CONFIRM_NOT_PUBLISHED -> {
                requireDecidable(state, command);
                yield new PublicationReconciledEvent(request.publicationId(), request.workspaceId(),
                        state.lastAttemptNo(), ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR, null,
                        "confirmed not published by " + command.operator(), command.operator(), command.note(),
                        command.decidedAt());
            }
            case REATTEMPT -> {
                requireDecidable(state, command);
                yield new PublicationExecutionRequestedEvent(request.publicationId(), request.workspaceId(),
                        AttemptTrigger.OPERATOR_REATTEMPT, command.operator(), command.note(), command.decidedAt(),
                        state.nextAttemptNo());
            }
            case ABANDON -> {
                requireDecidable(state, command);
                yield new PublicationAbandonedEvent(request.publicationId(), request.workspaceId(), command.operator(),
                        command.note(), command.decidedAt());
            }
            case CONFIRM_REMOVED, REPUBLISH -> throw new IllegalStateException("a vanished post's decision: "
                    + VerificationPolicy.class.getSimpleName());
        };
    }

    static Object onComment(PublicationState state, DecidePublicationCommand command) {
        PublicationRequestedEvent request = state.request();
        PublicationSteps.CommentState comment = state.steps().comment();
        if (!(comment == PublicationSteps.CommentState.PENDING ? OperatorDecisionRule.onCommentOfUnverifiedPost()
                : OperatorDecisionRule.onComment(comment == PublicationSteps.CommentState.OUTCOME_UNKNOWN))
                .contains(command.decision())) {
            throw commentDecisionRefused(command, comment);
        }
        return switch (command.decision()) {
            case CONFIRM_PUBLISHED -> new PublicationReconciledEvent(request.publicationId(), request.workspaceId(),
                    state.lastAttemptNo(), ReconciliationResult.FOUND, ReconciliationSource.OPERATOR,
                    command.providerRef(), "comment confirmed published by " + command.operator(), command.operator(),
                    command.note(), command.decidedAt());
            case CONFIRM_NOT_PUBLISHED -> new PublicationReconciledEvent(request.publicationId(),
                    request.workspaceId(), state.lastAttemptNo(), ReconciliationResult.NOT_FOUND,
                    ReconciliationSource.OPERATOR, null, "comment confirmed not published by " + command.operator(),
                    command.operator(), command.note(), command.decidedAt());
            case REATTEMPT -> new PublicationNextStepDueEvent(request.publicationId(), request.workspaceId(),
                    state.nextAttemptNo(), state.steps().followUp(), command.decidedAt());
            case ABANDON -> new PublicationStepSkippedEvent(request.publicationId(), request.workspaceId(),
                    state.lastAttemptNo(), state.steps().followUp(), command.operator(), command.note(),
                    command.decidedAt());
            case CONFIRM_REMOVED, REPUBLISH -> throw new IllegalStateException("a vanished post's decision: "
                    + VerificationPolicy.class.getSimpleName());
        };
    }

    /**
     * The post a publish or draft is confirmed with becomes the one its entry's updates and deletes
     * act on, so the request reads it back first (the aggregate does no I/O): a confirmation that
     * was not checked is refused, and one the channel could not read is recorded as unverified. A
     * second confirmation, of a post confirmed unverified, must be one that was read back.
     */
    private static Boolean verification(PublicationState state, DecidePublicationCommand command, boolean reconfirm) {
        if (!state.request().action().createsPost()) {
            return null;
        }
        if (command.verified() == null) {
            throw new HeraldRejection(ErrorCode.DECISION_NOT_ALLOWED, "confirm_published of a "
                    + state.request().action().wireName() + " needs its post read back first; send the decision again");
        }
        if (reconfirm && !command.verified()) {
            throw new HeraldRejection(ErrorCode.DECISION_NOT_ALLOWED, "the post was already confirmed without being"
                    + " read back, and the channel still cannot read the reference given: confirm one it can read");
        }
        return command.verified();
    }

    private static void requireDecidable(PublicationState state, DecidePublicationCommand command) {
        PublicationStatus status = state.status();
        if (OperatorDecisionRule.onPost(status, state.postUnverified()).contains(command.decision())) {
            return;
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

    private static HeraldRejection commentDecisionRefused(DecidePublicationCommand command,
                                                          PublicationSteps.CommentState comment) {
        String hint = comment == PublicationSteps.CommentState.OUTCOME_UNKNOWN
                ? ": the comment's outcome is unknown; confirm published or not published first" : "";
        return new HeraldRejection(ErrorCode.DECISION_NOT_ALLOWED, command.decision().wireName()
                + " is not allowed on the first comment while it is " + comment + hint);
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
