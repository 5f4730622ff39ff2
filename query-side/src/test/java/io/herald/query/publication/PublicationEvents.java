package io.herald.query.publication;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationStepSkippedEvent;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationResendDueEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationVerifiedEvent;
import io.herald.contracts.publication.PublicationVanishedEvent;
import io.herald.contracts.publication.PublicationVanishDecidedEvent;
import io.herald.contracts.publication.OperatorDecision;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes publication histories the way the aggregate would, numbering each stream's events, and
 * delivers them to the projection; keeps every delivery so a test can deliver the same events again.
 */
public final class PublicationEvents {

    public static final Instant T0 = Instant.parse("2026-12-01T09:00:00Z");

    private final PublicationViewProjection projection;
    private final Map<PublicationId, Long> nextSequence = new HashMap<>();
    private final List<Delivery> delivered = new ArrayList<>();

    public record Delivery(Object event, long sequence) {
    }

    public PublicationEvents(PublicationViewProjection projection) {
        this.projection = projection;
    }

    public List<Delivery> delivered() {
        return List.copyOf(delivered);
    }

    /** Delivers again, with their original sequence numbers, as a redelivery after a crash would. */
    public void redeliver(List<Delivery> deliveries) {
        deliveries.forEach(d -> deliver(d.event(), d.sequence()));
    }

    public PublicationId requested(String workspace, String entry, String channel, Instant at) {
        WorkspaceId ws = WorkspaceId.of(workspace);
        PublicationId id = IdempotencyKeys.publicationId(ws, entry, 3, ChannelId.of(channel), PublicationAction.PUBLISH);
        Content content = new Content("Title", "text of the post " + entry, "https://example.org/" + entry);
        send(id, new PublicationRequestedEvent(id, ws, entry, 3, ChannelId.of(channel), ChannelType.of("facebook"),
                PublicationAction.PUBLISH, content, content.hash(), at.plus(Duration.ofHours(1)), at, "calendar"));
        return id;
    }

    /** A publish with images and (where not null) a first comment. */
    public PublicationId requestedWithSteps(String workspace, String entry, List<MediaId> images, String comment,
                                            Instant at) {
        WorkspaceId ws = WorkspaceId.of(workspace);
        PublicationId id = IdempotencyKeys.publicationId(ws, entry, 3, ChannelId.of("fb-main"),
                PublicationAction.PUBLISH);
        Content content = new Content(null, "text of the post " + entry, null,
                images.stream().map(m -> new ContentMedia(m, "alt of " + m)).toList(), comment);
        send(id, new PublicationRequestedEvent(id, ws, entry, 3, ChannelId.of("fb-main"), ChannelType.of("facebook"),
                PublicationAction.PUBLISH, content, content.hash(), null, at, "calendar"));
        return id;
    }

    public void attempted(PublicationId id, String workspace, int attemptNo, PublicationStep step, MediaId mediaId,
                          Instant at) {
        send(id, new PublicationAttemptedEvent(id, WorkspaceId.of(workspace), ChannelId.of("fb-main"), attemptNo,
                attemptNo == 1 ? AttemptTrigger.INITIAL : AttemptTrigger.NEXT_STEP, id.value(), "hash", at,
                at.plus(Duration.ofMinutes(2)), null, step, mediaId));
    }

    public void nextStepDue(PublicationId id, String workspace, int attemptNo, PublicationStep step, Instant at) {
        send(id, new PublicationNextStepDueEvent(id, WorkspaceId.of(workspace), attemptNo, step, at));
    }

    public void stepSkipped(PublicationId id, String workspace, int attemptNo, PublicationStep step, Instant at) {
        send(id, new PublicationStepSkippedEvent(id, WorkspaceId.of(workspace), attemptNo, step, "olga", "no need",
                at));
    }

    public void attempted(PublicationId id, String workspace, int attemptNo, AttemptTrigger trigger, Instant at) {
        send(id, new PublicationAttemptedEvent(id, WorkspaceId.of(workspace), ChannelId.of("fb-main"), attemptNo,
                trigger, id.value(), "hash", at, at.plus(Duration.ofMinutes(2))));
    }

    public void succeeded(PublicationId id, String workspace, int attemptNo, ProviderRef ref, Instant at) {
        send(id, new PublicationSucceededEvent(id, WorkspaceId.of(workspace), attemptNo, ref,
                new AttemptTrace("fp-" + attemptNo, "page-1", at, true, 200, null, "trace-ok", 120), at));
    }

    public void failed(PublicationId id, String workspace, int attemptNo, FailureKind kind, String errorCode,
                       String detail, Instant retryAt, Instant at) {
        AttemptTrace trace = kind == FailureKind.NOT_SENT
                ? new AttemptTrace("fp-" + attemptNo, "page-1", null, false, null, null, null, 5)
                : new AttemptTrace("fp-" + attemptNo, "page-1", at, true, 400, errorCode, "trace-" + attemptNo, 90);
        send(id, new PublicationFailedEvent(id, WorkspaceId.of(workspace), attemptNo, kind, errorCode, detail, trace,
                retryAt, at));
    }

    public void outcomeUnknown(PublicationId id, String workspace, int attemptNo, Instant at) {
        send(id, new PublicationOutcomeUnknownEvent(id, WorkspaceId.of(workspace), attemptNo,
                UnknownCause.READ_TIMEOUT, "no response within 30 s after sending",
                new AttemptTrace("fp-" + attemptNo, "page-1", at, false, null, null, null, 30000), at));
    }

    /** The unknown create {@code unknownAttemptNo} is sent again with the same key, as the next attempt. */
    public void resendDue(PublicationId id, String workspace, int unknownAttemptNo, Instant at) {
        send(id, new PublicationResendDueEvent(id, WorkspaceId.of(workspace), unknownAttemptNo, unknownAttemptNo + 1,
                PublicationStep.CREATE_POST, RetrySafety.PROVIDER_KEY, id.value(), at.minusSeconds(30),
                at.plus(Duration.ofMinutes(50)).minusSeconds(30), 1, at));
    }

    public void reconciled(PublicationId id, String workspace, int attemptNo, ReconciliationResult result,
                           ReconciliationSource source, ProviderRef ref, String detail, Instant at) {
        send(id, new PublicationReconciledEvent(id, WorkspaceId.of(workspace), attemptNo, result, source, ref, detail,
                source == ReconciliationSource.OPERATOR ? "olga" : null,
                source == ReconciliationSource.OPERATOR ? "checked the Page by hand" : null, at));
    }

    /** An operator's {@code confirm_published} of {@code ref}; {@code verified} false: the channel could not read it. */
    public void confirmedByOperator(PublicationId id, String workspace, int attemptNo, ProviderRef ref,
                                    boolean verified, Instant at) {
        send(id, new PublicationReconciledEvent(id, WorkspaceId.of(workspace), attemptNo, ReconciliationResult.FOUND,
                ReconciliationSource.OPERATOR, ref, "confirmed published by olga"
                        + (verified ? "" : "; the channel could not read the post back"), "olga", "found it by hand",
                at, verified));
    }

    public void executionRequested(PublicationId id, String workspace, AttemptTrigger trigger, Instant at) {
        send(id, new PublicationExecutionRequestedEvent(id, WorkspaceId.of(workspace), trigger, "olga", "try again", at,
                0));
    }

    public void abandoned(PublicationId id, String workspace, Instant at) {
        send(id, new PublicationAbandonedEvent(id, WorkspaceId.of(workspace), "olga", "not needed any more", at));
    }

    public void held(PublicationId id, String workspace, String channel, int attemptNo, String reason, Instant at) {
        send(id, new io.herald.contracts.publication.PublicationHeldEvent(id, WorkspaceId.of(workspace),
                ChannelId.of(channel), attemptNo, reason, attemptNo == 0 ? null : "190/463", null, at, at));
    }

    public void released(PublicationId id, String workspace, String channel, int attemptNo, Instant at) {
        send(id, new io.herald.contracts.publication.PublicationReleasedEvent(id, WorkspaceId.of(workspace),
                ChannelId.of(channel), attemptNo, at));
    }

    public void verified(PublicationId id, String workspace, ProviderRef ref, Instant at) {
        send(id, new PublicationVerifiedEvent(id, WorkspaceId.of(workspace), ref,
                "the post exists", at));
    }

    public void vanished(PublicationId id, String workspace, ProviderRef ref, Instant at) {
        send(id, new PublicationVanishedEvent(id, WorkspaceId.of(workspace), ref,
                "no post " + ref.id() + " (404)", at));
    }

    public void vanishDecided(PublicationId id, String workspace, Instant at) {
        send(id, new PublicationVanishDecidedEvent(id, WorkspaceId.of(workspace),
                OperatorDecision.CONFIRM_REMOVED, null, "ops", null, at));
    }

    private void send(PublicationId id, Object event) {
        long sequence = nextSequence.merge(id, 1L, Long::sum) - 1;
        delivered.add(new Delivery(event, sequence));
        deliver(event, sequence);
    }

    private void deliver(Object event, long sequence) {
        if (event instanceof PublicationRequestedEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof PublicationVerifiedEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof PublicationVanishedEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof PublicationVanishDecidedEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof PublicationAttemptedEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof PublicationSucceededEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof PublicationFailedEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof PublicationOutcomeUnknownEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof PublicationReconciledEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof PublicationResendDueEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof PublicationExecutionRequestedEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof PublicationAbandonedEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof PublicationNextStepDueEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof PublicationStepSkippedEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof io.herald.contracts.publication.PublicationHeldEvent e) {
            projection.on(e, sequence);
        } else if (event instanceof io.herald.contracts.publication.PublicationReleasedEvent e) {
            projection.on(e, sequence);
        } else {
            throw new IllegalArgumentException("not a publication event: " + event);
        }
    }
}
