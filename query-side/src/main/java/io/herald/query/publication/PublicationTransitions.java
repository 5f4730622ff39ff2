package io.herald.query.publication;

import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationNothingToChangeEvent;
import io.herald.contracts.publication.PublicationHeldEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
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
import io.herald.contracts.publication.PublicationVerifiedEvent;
import io.herald.contracts.publication.PublicationView;
import io.herald.contracts.publication.PublicationView.Attempt;
import io.herald.contracts.publication.PublicationView.AttemptOutcome;
import io.herald.contracts.publication.PublicationView.StepStatus;
import io.herald.contracts.publication.ReconciliationSource;
import java.util.List;

/**
 * How each publication event changes the view: pure functions of (view, event), so a rebuild from
 * the history gives exactly what the live projection gave.
 *
 * <p>Results and reconciliations for an attempt older than the latest one are recorded in the
 * history but do not change the status (docs/architecture.md#rules-an-auditor-can-check, rule 5: stale results change nothing).
 */
final class PublicationTransitions {

    private PublicationTransitions() {
    }

    static PublicationView requested(PublicationRequestedEvent e) {
        return new PublicationView(e.publicationId(), e.workspaceId(), e.calendarEntryId(), e.contentVersion(),
                e.channelId(), e.channelType(), e.action(), PublicationStatus.REQUESTED, e.contentHash(),
                e.scheduledAt(), e.requestedAt(), null, List.of(), List.of(), false, null, e.requestedAt(),
                StepViews.planned(e.action(), e.content(), e.steps()), null);
    }

    static PublicationView attempted(PublicationView view, PublicationAttemptedEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        d.putAttempt(AttemptRows.inFlight(e));
        PublicationStep step = PublicationStep.orPostStep(e.step(), d.action);
        StepViews.attempted(d, step, e.mediaId(), e.attemptNo());
        if (e.attemptNo() >= d.latestAttemptNo()) {
            // a step after the post (its first comment) leaves the publication SUCCEEDED
            if (step.outcomeRestsOnIt()) {
                d.status = PublicationStatus.ATTEMPTING;
            }
            d.noDecision();
        }
        d.updatedAt = e.startedAt();
        return d.toView();
    }

    static PublicationView succeeded(PublicationView view, PublicationSucceededEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        d.putAttempt(AttemptRows.succeeded(d.attempt(e.attemptNo()), e));
        StepViews.settle(d, e.attemptNo(), StepStatus.SUCCEEDED, e.providerRef(), e.note());
        PublicationStep step = StepViews.stepOf(d, e.attemptNo());
        if (e.attemptNo() >= d.latestAttemptNo()) {
            // a step before the post leaves the publication ATTEMPTING; one after it leaves it SUCCEEDED
            if (step.makesPost()) {
                d.status = PublicationStatus.SUCCEEDED;
                d.providerRef = e.providerRef();
            }
            d.noDecision();
        }
        d.updatedAt = e.succeededAt();
        return d.toView();
    }

    static PublicationView failed(PublicationView view, PublicationFailedEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        d.putAttempt(AttemptRows.failed(d.attempt(e.attemptNo()), e));
        StepViews.settle(d, e.attemptNo(), e.retryAt() != null ? StepStatus.PENDING : StepStatus.FAILED, null,
                DecisionReasons.failure(e));
        PublicationStep step = StepViews.stepOf(d, e.attemptNo());
        if (step.followsPost() && e.attemptNo() >= d.latestAttemptNo()) {
            if (e.retryAt() != null) {
                d.noDecision();
            } else {
                d.needsDecision("the post exists; its " + step.label() + " " + DecisionReasons.failure(e));
            }
        } else if (e.attemptNo() >= d.latestAttemptNo()) {
            if (e.retryAt() != null) {
                d.status = PublicationStatus.RETRY_SCHEDULED;
                d.noDecision();
            } else {
                d.status = PublicationStatus.FAILED;
                d.needsDecision(DecisionReasons.failure(e));
            }
        }
        d.updatedAt = e.failedAt();
        return d.toView();
    }

    static PublicationView outcomeUnknown(PublicationView view, PublicationOutcomeUnknownEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        d.putAttempt(AttemptRows.outcomeUnknown(d.attempt(e.attemptNo()), e));
        StepViews.settle(d, e.attemptNo(), StepStatus.OUTCOME_UNKNOWN, null, e.detail());
        PublicationStep step = StepViews.stepOf(d, e.attemptNo());
        if (!step.makesPost()) {
            // a repeatable step is sent again; one after the post is read back: the status stays
            d.updatedAt = e.recordedAt();
            return d.toView();
        }
        if (e.attemptNo() >= d.latestAttemptNo()) {
            // the automatic read-back comes first; the operator is asked only once it could not tell
            d.status = PublicationStatus.OUTCOME_UNKNOWN;
            d.noDecision();
        }
        d.updatedAt = e.recordedAt();
        return d.toView();
    }

    /**
     * Rule 3's one exception: the unknown create is sent again at once with the same key, which the
     * provider cannot turn into a second post. Nothing waits for an operator: the publication is
     * attempting again, its post step pending with why; the unknown attempt keeps its outcome.
     */
    static PublicationView resendDue(PublicationView view, PublicationResendDueEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        if (e.unknownAttemptNo() >= d.latestAttemptNo()) {
            StepViews.settle(d, e.unknownAttemptNo(), StepStatus.PENDING, null, "the answer to attempt "
                    + e.unknownAttemptNo() + " was lost; sent again as attempt " + e.attemptNo() + " with the same key"
                    + " (retry safety " + e.retrySafety().wireName() + "), which cannot make a second post");
            d.status = PublicationStatus.ATTEMPTING;
            d.noDecision();
        }
        d.updatedAt = e.dueAt();
        return d.toView();
    }

    static PublicationView reconciled(PublicationView view, PublicationReconciledEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        PublicationStep step = StepViews.stepOf(d, e.attemptNo());
        d.reconciliations.add(new PublicationView.Reconciliation(e.reconciledAt(), e.attemptNo(), e.result(),
                e.source(), e.detail(), e.providerRef(), e.decidedBy(), e.note(), step, e.verified()));
        d.updatedAt = e.reconciledAt();
        if (e.attemptNo() < d.latestAttemptNo()) {
            return d.toView();
        }
        StepViews.settle(d, e.attemptNo(), switch (e.result()) {
            case FOUND -> StepStatus.SUCCEEDED;
            case NOT_FOUND -> StepStatus.FAILED;
            case UNKNOWN -> StepStatus.OUTCOME_UNKNOWN;
        }, e.providerRef(), e.detail());
        if (step.followsPost()) {
            switch (e.result()) {
                case FOUND -> d.noDecision();
                case NOT_FOUND -> d.needsDecision("the post exists; its " + step.label() + " "
                        + DecisionReasons.notFound(e));
                case UNKNOWN -> d.needsDecision("the post exists; read-back could not tell whether its "
                        + step.label() + " was posted" + (e.detail() != null ? " (" + e.detail() + ")" : "")
                        + ": confirm published, confirm not published or abandon the " + step.label());
            }
            return d.toView();
        }
        switch (e.result()) {
            case FOUND -> {
                closeAttemptRefusedAsDuplicate(d, e);
                d.status = PublicationStatus.SUCCEEDED;
                if (e.providerRef() != null) {
                    d.providerRef = e.providerRef();
                }
                d.noDecision();
                if (e.unverified()) {
                    commentWaitsForReadableConfirmation(d);
                }
            }
            case NOT_FOUND -> {
                d.status = PublicationStatus.NOT_EXECUTED;
                d.needsDecision(DecisionReasons.notFound(e));
            }
            case UNKNOWN -> {
                d.status = PublicationStatus.OUTCOME_UNKNOWN;
                d.needsDecision(e.detail() != null ? e.detail()
                        : "read-back could not tell whether attempt " + e.attemptNo()
                        + " was published: confirm published, confirm not published or abandon");
            }
        }
        return d.toView();
    }

    static PublicationView executionRequested(PublicationView view, PublicationExecutionRequestedEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        d.status = PublicationStatus.RETRY_SCHEDULED;
        d.noDecision();
        d.updatedAt = e.requestedAt();
        return d.toView();
    }

    static PublicationView targeted(PublicationView view, PublicationTargetedEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        d.targetRef = e.target();
        d.updatedAt = e.targetedAt();
        return d.toView();
    }

    static PublicationView superseded(PublicationView view, PublicationSupersededEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        StepViews.skipUnfinished(d);
        d.status = PublicationStatus.SUPERSEDED;
        d.noDecision();
        d.updatedAt = e.supersededAt();
        return d.toView();
    }

    /** Nothing was sent: FAILED with the reason, in the queue only as the operator's information. */
    static PublicationView nothingToChange(PublicationView view, PublicationNothingToChangeEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        StepViews.skipUnfinished(d);
        d.status = PublicationStatus.FAILED;
        d.needsDecision("nothing_to_change: " + e.detail());
        d.updatedAt = e.refusedAt();
        return d.toView();
    }

    /** The next step is due: the publication is in progress again, or (after the post) the step after it. */
    static PublicationView nextStepDue(PublicationView view, PublicationNextStepDueEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        if (e.step().followsPost()) {
            StepViews.settle(d, e.step(), StepStatus.PENDING, null);
        } else {
            d.status = PublicationStatus.ATTEMPTING;
        }
        d.noDecision();
        d.updatedAt = e.dueAt();
        return d.toView();
    }

    static PublicationView stepSkipped(PublicationView view, PublicationStepSkippedEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        StepViews.settle(d, e.step(), StepStatus.SKIPPED, "skipped by " + e.decidedBy()
                + (e.note() != null ? ": " + e.note() : ""));
        d.noDecision();
        d.updatedAt = e.skippedAt();
        return d.toView();
    }

    /** The refused attempt (if any) ends as failed; the publication waits for new credentials. */
    static PublicationView held(PublicationView view, PublicationHeldEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        if (e.attemptNo() > 0) {
            d.putAttempt(AttemptRows.refusedForCredentials(d.attempt(e.attemptNo()), e));
        }
        if (e.attemptNo() == 0 || e.attemptNo() >= d.latestAttemptNo()) {
            d.status = PublicationStatus.HELD;
            d.heldReason = e.heldReason();
            d.noDecision();
        }
        d.updatedAt = e.heldAt();
        return d.toView();
    }

    static PublicationView released(PublicationView view, PublicationReleasedEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        d.status = PublicationStatus.RETRY_SCHEDULED;
        d.heldReason = null;
        d.updatedAt = e.releasedAt();
        return d.toView();
    }

    /** The post was read again after success and is still there: the status stays. */
    static PublicationView verified(PublicationView view, PublicationVerifiedEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        d.verifiedAt = e.verifiedAt();
        d.updatedAt = e.verifiedAt();
        return d.toView();
    }

    /** The post is gone after success: still SUCCEEDED, with {@code vanishedAt}, and waiting for a decision. */
    static PublicationView vanished(PublicationView view, PublicationVanishedEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        d.vanishedAt = e.vanishedAt();
        d.needsDecision(DecisionReasons.vanished(e, d.contentVersion));
        d.decisionStep = PublicationStep.postStepOf(d.action);
        d.updatedAt = e.vanishedAt();
        return d.toView();
    }

    static PublicationView vanishDecided(PublicationView view, PublicationVanishDecidedEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        d.noDecision();
        d.updatedAt = e.decidedAt();
        return d.toView();
    }

    static PublicationView abandoned(PublicationView view, PublicationAbandonedEvent e) {
        PublicationViewDraft d = PublicationViewDraft.of(view);
        StepViews.skipUnfinished(d);
        d.status = PublicationStatus.ABANDONED;
        d.noDecision();
        d.updatedAt = e.abandonedAt();
        return d.toView();
    }

    /**
     * The post stands on an operator's word alone (the channel could not read it back): its first
     * comment is not posted until a confirmation Herald can read, which a connection that cannot read
     * never gives. The operator is asked, as the aggregate allows: abandon the comment (the post
     * stays) or confirm the post again with a reference the channel reads back; never re-attempt it.
     */
    private static void commentWaitsForReadableConfirmation(PublicationViewDraft d) {
        for (PublicationView.Step s : d.steps) {
            if (s.step().followsPost() && s.status() == StepStatus.PENDING) {
                d.needsDecision("the post was confirmed without being read back (the channel could not read it);"
                        + " its " + s.step().label() + " waits for a confirmation Herald can read: abandon the "
                        + s.step().label() + " (the post stays), or confirm published again with a reference the"
                        + " channel can read");
                d.decisionStep = s.step();
                return;
            }
        }
    }

    /**
     * A duplicate refusal on a re-attempt ends that attempt's call (the provider refused it) while
     * proving that an earlier attempt landed; without this the attempt would stay in flight forever.
     */
    private static void closeAttemptRefusedAsDuplicate(PublicationViewDraft d, PublicationReconciledEvent e) {
        if (e.source() != ReconciliationSource.PROVIDER_DUPLICATE_SIGNAL) {
            return;
        }
        Attempt a = d.attempt(e.attemptNo());
        if (a.outcome() == AttemptOutcome.IN_FLIGHT) {
            d.putAttempt(AttemptRows.refusedAsDuplicate(a, e));
        }
    }
}
