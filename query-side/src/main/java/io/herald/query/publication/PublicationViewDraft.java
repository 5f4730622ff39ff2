package io.herald.query.publication;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A mutable copy of a {@link PublicationView}, so that each transition names only what it changes. */
final class PublicationViewDraft {

    PublicationId publicationId;
    WorkspaceId workspaceId;
    String calendarEntryId;
    long contentVersion;
    ChannelId channelId;
    ChannelType channelType;
    PublicationAction action;
    PublicationStatus status;
    String contentHash;
    Instant scheduledAt;
    Instant requestedAt;
    ProviderRef providerRef;
    List<PublicationView.Attempt> attempts = new ArrayList<>();
    List<PublicationView.Reconciliation> reconciliations = new ArrayList<>();
    boolean needsDecision;
    String decisionReason;
    Instant updatedAt;
    ProviderRef targetRef;
    List<PublicationView.Step> steps = new ArrayList<>();
    PublicationStep decisionStep;
    /** Kept only while HELD. */
    String heldReason;
    Instant verifiedAt;
    Instant vanishedAt;

    static PublicationViewDraft of(PublicationView view) {
        PublicationViewDraft d = new PublicationViewDraft();
        d.publicationId = view.publicationId();
        d.workspaceId = view.workspaceId();
        d.calendarEntryId = view.calendarEntryId();
        d.contentVersion = view.contentVersion();
        d.channelId = view.channelId();
        d.channelType = view.channelType();
        d.action = view.action();
        d.status = view.status();
        d.contentHash = view.contentHash();
        d.scheduledAt = view.scheduledAt();
        d.requestedAt = view.requestedAt();
        d.providerRef = view.providerRef();
        d.attempts = new ArrayList<>(view.attempts());
        d.reconciliations = new ArrayList<>(view.reconciliations());
        d.needsDecision = view.needsDecision();
        d.decisionReason = view.decisionReason();
        d.updatedAt = view.updatedAt();
        d.targetRef = view.targetRef();
        d.steps = new ArrayList<>(view.steps().isEmpty() ? StepViews.derived(view) : view.steps());
        d.decisionStep = view.decisionStep();
        d.heldReason = view.heldReason();
        d.verifiedAt = view.verifiedAt();
        d.vanishedAt = view.vanishedAt();
        return d;
    }

    PublicationView toView() {
        return new PublicationView(publicationId, workspaceId, calendarEntryId, contentVersion, channelId,
                channelType, action, status, contentHash, scheduledAt, requestedAt, providerRef,
                List.copyOf(attempts), List.copyOf(reconciliations), needsDecision, decisionReason, updatedAt,
                targetRef, List.copyOf(steps), needsDecision ? decisionStep : null,
                status == PublicationStatus.HELD ? heldReason : null, verifiedAt, vanishedAt);
    }

    void noDecision() {
        needsDecision = false;
        decisionReason = null;
        decisionStep = null;
    }

    /** A decision about the step of the latest attempt (the post's, an upload's, or the comment's). */
    void needsDecision(String reason) {
        needsDecision = true;
        decisionReason = reason;
        decisionStep = StepViews.stepOf(this, latestAttemptNo());
    }

    int latestAttemptNo() {
        return attempts.stream().mapToInt(PublicationView.Attempt::attemptNo).max().orElse(0);
    }

    PublicationView.Attempt attempt(int attemptNo) {
        return attempts.stream().filter(a -> a.attemptNo() == attemptNo).findFirst()
                // the attempt's own event is always applied first; this covers a history that lacks it
                .orElse(new PublicationView.Attempt(attemptNo, null, null, PublicationView.AttemptOutcome.IN_FLIGHT,
                        null, null, null, null, null, null, null, null, null, null));
    }

    void putAttempt(PublicationView.Attempt attempt) {
        attempts.removeIf(a -> a.attemptNo() == attempt.attemptNo());
        attempts.add(attempt);
        attempts.sort((a, b) -> Integer.compare(a.attemptNo(), b.attemptNo()));
    }
}
