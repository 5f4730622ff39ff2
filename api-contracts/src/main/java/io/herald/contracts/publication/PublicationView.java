package io.herald.contracts.publication;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.swagger.v3.oas.annotations.media.Schema;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import java.time.Instant;
import java.util.List;

/**
 * A publication as clients and operators see it (docs/api.md#publications).
 *
 * @param steps        its provider writes in order: one {@code upload_media} per image, the post step,
 *                     {@code first_comment} where asked
 * @param decisionStep while {@code needsDecision}: the step the decision is about
 * @param throttledUntil while its next attempt waits to start (REQUESTED, RETRY_SCHEDULED, or ATTEMPTING
 *                     between two steps) and its connection's budget holds it back: when the budget allows
 *                     that attempt (a reason, not a state); null otherwise
 * @param asOf         only on a view read as it stood at an instant ({@code ?asOf=}): that instant
 * @param verifiedAt   when its post was last read again after success and found still there; null otherwise
 * @param vanishedAt   when its post was read again after success and found gone (it stays SUCCEEDED); null otherwise
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonIgnoreProperties(value = {"allowedDecisions"}, allowGetters = true)
public record PublicationView(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        String calendarEntryId,
        long contentVersion,
        ChannelId channelId,
        ChannelType channelType,
        PublicationAction action,
        PublicationStatus status,
        String contentHash,
        Instant scheduledAt,
        Instant requestedAt,
        ProviderRef providerRef,
        List<Attempt> attempts,
        List<Reconciliation> reconciliations,
        boolean needsDecision,
        String decisionReason,
        Instant updatedAt,
        ProviderRef targetRef,
        List<Step> steps,
        PublicationStep decisionStep,
        String heldReason,
        Instant throttledUntil,
        @JsonInclude(JsonInclude.Include.NON_NULL) Instant asOf,
        Instant verifiedAt,
        Instant vanishedAt) {

    public PublicationView {
        steps = steps == null ? List.of() : List.copyOf(steps);
    }

    /** The view as the read store keeps it, with what a verification after success found. */
    public PublicationView(PublicationId publicationId, WorkspaceId workspaceId, String calendarEntryId,
                           long contentVersion, ChannelId channelId, ChannelType channelType,
                           PublicationAction action, PublicationStatus status, String contentHash,
                           Instant scheduledAt, Instant requestedAt, ProviderRef providerRef, List<Attempt> attempts,
                           List<Reconciliation> reconciliations, boolean needsDecision, String decisionReason,
                           Instant updatedAt, ProviderRef targetRef, List<Step> steps, PublicationStep decisionStep,
                           String heldReason, Instant verifiedAt, Instant vanishedAt) {
        this(publicationId, workspaceId, calendarEntryId, contentVersion, channelId, channelType, action, status,
                contentHash, scheduledAt, requestedAt, providerRef, attempts, reconciliations, needsDecision,
                decisionReason, updatedAt, targetRef, steps, decisionStep, heldReason, null, null, verifiedAt,
                vanishedAt);
    }

    /** The view as it is (no {@code asOf}), as the read store keeps it: whether a budget holds it back is read when it is shown. */
    public PublicationView(PublicationId publicationId, WorkspaceId workspaceId, String calendarEntryId,
                           long contentVersion, ChannelId channelId, ChannelType channelType,
                           PublicationAction action, PublicationStatus status, String contentHash,
                           Instant scheduledAt, Instant requestedAt, ProviderRef providerRef, List<Attempt> attempts,
                           List<Reconciliation> reconciliations, boolean needsDecision, String decisionReason,
                           Instant updatedAt, ProviderRef targetRef, List<Step> steps, PublicationStep decisionStep,
                           String heldReason) {
        this(publicationId, workspaceId, calendarEntryId, contentVersion, channelId, channelType, action, status,
                contentHash, scheduledAt, requestedAt, providerRef, attempts, reconciliations, needsDecision,
                decisionReason, updatedAt, targetRef, steps, decisionStep, heldReason, null, null, null, null);
    }

    /**
     * The decisions an operator may take now ({@code POST …/decisions} accepts these and refuses any
     * other with {@code decision_not_allowed}), read off this view by {@link OperatorDecisionRule}, the
     * rule the publication itself enforces: about the step {@code decisionStep} names while
     * {@code needsDecision} (the post, or its first comment), about the post otherwise. Empty when
     * none is possible.
     */
    @JsonProperty("allowedDecisions")
    @Schema(description = "The decisions an operator may take now, for the step decisionStep names while "
            + "needsDecision (else the post); any other is refused with decision_not_allowed. Empty when none.")
    public List<OperatorDecision> allowedDecisions() {
        if (status == null) {
            return List.of();
        }
        return List.copyOf(OperatorDecisionRule.allowed(status, vanishedAt != null && needsDecision,
                commentStanding(), postUnverified()));
    }

    private OperatorDecisionRule.Comment commentStanding() {
        if (!needsDecision || decisionStep == null || !decisionStep.followsPost()) {
            return OperatorDecisionRule.Comment.NONE;
        }
        StepStatus comment = steps.stream().filter(s -> s.step() == decisionStep).map(Step::status)
                .reduce((first, second) -> second).orElse(null);
        if (comment == null) {
            return OperatorDecisionRule.Comment.NONE;
        }
        return switch (comment) {
            case OUTCOME_UNKNOWN -> OperatorDecisionRule.Comment.OUTCOME_UNKNOWN;
            case PENDING -> OperatorDecisionRule.Comment.WAITS_ON_UNVERIFIED_POST;
            case FAILED -> OperatorDecisionRule.Comment.FAILED;
            case SUCCEEDED, SKIPPED -> OperatorDecisionRule.Comment.NONE;
        };
    }

    /** The post stands on an operator's word alone: its latest confirmation could not be read back. */
    private boolean postUnverified() {
        Reconciliation latest = null;
        for (Reconciliation r : reconciliations == null ? List.<Reconciliation>of() : reconciliations) {
            if (r.result() == ReconciliationResult.FOUND && (r.step() == null || !r.step().followsPost())) {
                latest = r;
            }
        }
        return latest != null && Boolean.FALSE.equals(latest.verified());
    }

    /** This view as it stood at {@code instant}: the same fields, with {@code asOf} echoed. */
    public PublicationView asOf(Instant instant) {
        return new PublicationView(publicationId, workspaceId, calendarEntryId, contentVersion, channelId, channelType,
                action, status, contentHash, scheduledAt, requestedAt, providerRef, attempts, reconciliations,
                needsDecision, decisionReason, updatedAt, targetRef, steps, decisionStep, heldReason, throttledUntil,
                instant, verifiedAt, vanishedAt);
    }

    /** This view, saying until when its connection's budget holds it back. */
    public PublicationView throttledUntil(Instant until) {
        return new PublicationView(publicationId, workspaceId, calendarEntryId, contentVersion, channelId,
                channelType, action, status, contentHash, scheduledAt, requestedAt, providerRef, attempts,
                reconciliations, needsDecision, decisionReason, updatedAt, targetRef, steps, decisionStep, heldReason,
                until, asOf, verifiedAt, vanishedAt);
    }

    /** A view without steps (the publication's single step is derived where it is read). */
    public PublicationView(PublicationId publicationId, WorkspaceId workspaceId, String calendarEntryId,
                           long contentVersion, ChannelId channelId, ChannelType channelType,
                           PublicationAction action, PublicationStatus status, String contentHash,
                           Instant scheduledAt, Instant requestedAt, ProviderRef providerRef, List<Attempt> attempts,
                           List<Reconciliation> reconciliations, boolean needsDecision, String decisionReason,
                           Instant updatedAt) {
        this(publicationId, workspaceId, calendarEntryId, contentVersion, channelId, channelType, action, status,
                contentHash, scheduledAt, requestedAt, providerRef, attempts, reconciliations, needsDecision,
                decisionReason, updatedAt, null, List.of(), null, null);
    }

    /** A view with a target (an update or delete) and no steps yet. */
    public PublicationView(PublicationId publicationId, WorkspaceId workspaceId, String calendarEntryId,
                           long contentVersion, ChannelId channelId, ChannelType channelType, PublicationAction action,
                           PublicationStatus status, String contentHash, Instant scheduledAt, Instant requestedAt,
                           ProviderRef providerRef, List<Attempt> attempts, List<Reconciliation> reconciliations,
                           boolean needsDecision, String decisionReason, Instant updatedAt, ProviderRef targetRef) {
        this(publicationId, workspaceId, calendarEntryId, contentVersion, channelId, channelType, action, status,
                contentHash, scheduledAt, requestedAt, providerRef, attempts, reconciliations, needsDecision,
                decisionReason, updatedAt, targetRef, List.of(), null, null);
    }

    /** A view with steps and no target (a publish or draft). */
    public PublicationView(PublicationId publicationId, WorkspaceId workspaceId, String calendarEntryId,
                           long contentVersion, ChannelId channelId, ChannelType channelType, PublicationAction action,
                           PublicationStatus status, String contentHash, Instant scheduledAt, Instant requestedAt,
                           ProviderRef providerRef, List<Attempt> attempts, List<Reconciliation> reconciliations,
                           boolean needsDecision, String decisionReason, Instant updatedAt, List<Step> steps,
                           PublicationStep decisionStep) {
        this(publicationId, workspaceId, calendarEntryId, contentVersion, channelId, channelType, action, status,
                contentHash, scheduledAt, requestedAt, providerRef, attempts, reconciliations, needsDecision,
                decisionReason, updatedAt, null, steps, decisionStep, null);
    }

    /**
     * One provider write and where it stands.
     *
     * @param mediaId    for {@code upload_media}: the image
     * @param attempts   how many attempts it took so far
     * @param attemptNos which of the publication's attempts were this step's
     */
    @JsonIgnoreProperties(value = {"stepClass", "stepRole", "stepLabel"}, allowGetters = true)
    @Schema(name = "PublicationStep")
    public record Step(
            PublicationStep step,
            MediaId mediaId,
            StepStatus status,
            ProviderRef providerRef,
            int attempts,
            String detail,
            List<Integer> attemptNos) {

        public Step {
            attemptNos = attemptNos == null ? List.of() : List.copyOf(attemptNos);
        }

        /** What the step's kind may do twice: the console reads it rather than the kind's name. */
        @JsonProperty("stepClass")
        public StepClass stepClass() {
            return step == null ? null : step.stepClass();
        }

        /** Where the step's kind stands beside the post (whether the publication's status rests on it). */
        @JsonProperty("stepRole")
        public StepRole stepRole() {
            return step == null ? null : step.role();
        }

        /** How people read the step's kind ("first comment"). */
        @JsonProperty("stepLabel")
        public String stepLabel() {
            return step == null ? null : step.label();
        }

        /** The steps a request plans, each PENDING: see {@link PublicationStep#plan}. */
        public static List<Step> planned(PublicationAction action, Content content, List<PublicationStep> kinds) {
            return PublicationStep.plan(action, content, kinds).stream().map(p -> pending(p.kind(), p.mediaId()))
                    .toList();
        }

        private static Step pending(PublicationStep step, MediaId mediaId) {
            return new Step(step, mediaId, StepStatus.PENDING, null, 0, null, List.of());
        }
    }

    public enum StepStatus {
        PENDING,
        SUCCEEDED,
        FAILED,
        OUTCOME_UNKNOWN,
        SKIPPED
    }

    /** One provider call and what came back, or that nothing did. */
    public record Attempt(
            int attemptNo,
            AttemptTrigger trigger,
            Instant startedAt,
            AttemptOutcome outcome,
            Integer httpStatus,
            String providerCode,
            String providerTraceId,
            String detail,
            String requestFingerprint,
            FailureKind failureKind,
            UnknownCause unknownCause,
            Boolean responseReceived,
            Instant finishedAt,
            Instant retryAt) {
    }

    /**
     * One read-back or decision about an attempt's effect; {@code step} is the step that attempt made.
     * {@code verified}, on an operator's confirmation that names the post: whether it was read back as
     * the connection's own (absent elsewhere).
     */
    public record Reconciliation(
            Instant at,
            int attemptNo,
            ReconciliationResult result,
            ReconciliationSource source,
            String detail,
            ProviderRef providerRef,
            String decidedBy,
            String note,
            PublicationStep step,
            @JsonInclude(JsonInclude.Include.NON_NULL) Boolean verified) {

        public Reconciliation(Instant at, int attemptNo, ReconciliationResult result, ReconciliationSource source,
                              String detail, ProviderRef providerRef, String decidedBy, String note,
                              PublicationStep step) {
            this(at, attemptNo, result, source, detail, providerRef, decidedBy, note, step, null);
        }

        public Reconciliation(Instant at, int attemptNo, ReconciliationResult result, ReconciliationSource source,
                              String detail, ProviderRef providerRef, String decidedBy, String note) {
            this(at, attemptNo, result, source, detail, providerRef, decidedBy, note, null);
        }
    }

    public enum AttemptOutcome {
        IN_FLIGHT,
        SUCCEEDED,
        FAILED,
        OUTCOME_UNKNOWN
    }
}
