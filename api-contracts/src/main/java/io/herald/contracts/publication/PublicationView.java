package io.herald.contracts.publication;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import java.util.List;

/** A publication as clients and operators see it (API.md, "publication view"). */
@JsonInclude(JsonInclude.Include.ALWAYS)
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
        String heldReason) {

    /** A view of a publication that is not HELD. */
    public PublicationView(PublicationId publicationId, WorkspaceId workspaceId, String calendarEntryId,
                           long contentVersion, ChannelId channelId, ChannelType channelType,
                           PublicationAction action, PublicationStatus status, String contentHash,
                           Instant scheduledAt, Instant requestedAt, ProviderRef providerRef,
                           List<Attempt> attempts, List<Reconciliation> reconciliations, boolean needsDecision,
                           String decisionReason, Instant updatedAt) {
        this(publicationId, workspaceId, calendarEntryId, contentVersion, channelId, channelType, action, status,
                contentHash, scheduledAt, requestedAt, providerRef, attempts, reconciliations, needsDecision,
                decisionReason, updatedAt, null);
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

    /** One read-back or decision about an attempt's effect. */
    public record Reconciliation(
            Instant at,
            int attemptNo,
            ReconciliationResult result,
            ReconciliationSource source,
            String detail,
            ProviderRef providerRef,
            String decidedBy,
            String note) {
    }

    public enum AttemptOutcome {
        IN_FLIGHT,
        SUCCEEDED,
        FAILED,
        OUTCOME_UNKNOWN
    }
}
