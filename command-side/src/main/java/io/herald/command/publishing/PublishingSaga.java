package io.herald.command.publishing;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import java.time.Instant;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.annotation.DeadlineHandler;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.modelling.saga.EndSaga;
import org.axonframework.modelling.saga.SagaEventHandler;
import org.axonframework.modelling.saga.SagaLifecycle;
import org.axonframework.modelling.saga.StartSaga;
import org.axonframework.spring.stereotype.Saga;

/**
 * Drives one publication from request to a final state. It decides when an attempt is due
 * (at once, at {@code scheduledAt}, after a retry delay, after an operator's re-attempt); a later
 * attempt waits on the persistent deadline manager, so a restart loses nothing, and one due now is
 * handed to the runner straight away. If an attempt that was due never shows up as
 * {@code PublicationAttempted} (the runner died before the write-ahead), a watchdog deadline asks
 * again; the aggregate refuses anything that would break a rule, so asking twice is harmless.
 */
@Saga
@ProcessingGroup(PublishingSaga.PROCESSING_GROUP)
public class PublishingSaga {

    public static final String PROCESSING_GROUP = "publishing-saga";
    static final String ASSOCIATION = "publicationId";
    static final String WATCHDOG = "publication-attempt-watchdog";

    private PublicationId publicationId;
    private WorkspaceId workspaceId;
    private ChannelId channelId;
    private PublicationAction action;
    private Content content;
    private Instant scheduledAt;
    private int lastAttemptNo;
    private Instant lastAttemptStartedAt;
    private boolean earlierAttemptMayHaveLanded;
    private int notSentFailures;
    private int rateLimitedFailures;
    private String watchdogId;

    @StartSaga
    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationRequestedEvent event, @Timestamp Instant at, Attempts attempts,
                   DeadlineManager deadlines, PublishingProperties properties) {
        publicationId = event.publicationId();
        workspaceId = event.workspaceId();
        channelId = event.channelId();
        action = event.action();
        content = event.content();
        scheduledAt = event.scheduledAt();
        if (scheduledAt != null && scheduledAt.isAfter(at)) {
            deadlines.schedule(scheduledAt, AttemptDue.NAME, new AttemptDue(AttemptTrigger.INITIAL));
        } else {
            attemptNow(AttemptTrigger.INITIAL, attempts, deadlines, properties);
        }
    }

    @DeadlineHandler(deadlineName = AttemptDue.NAME)
    public void due(AttemptDue due, Attempts attempts, DeadlineManager deadlines, PublishingProperties properties) {
        attemptNow(due.trigger(), attempts, deadlines, properties);
    }

    /** The attempt that was due never started (the runner died, say): ask once more, and only once. */
    @DeadlineHandler(deadlineName = WATCHDOG)
    public void watchdog(AttemptDue due, Attempts attempts) {
        watchdogId = null;
        attempts.run(plan(due.trigger()));
    }

    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationAttemptedEvent event, DeadlineManager deadlines) {
        lastAttemptNo = event.attemptNo();
        lastAttemptStartedAt = event.startedAt();
        cancelWatchdog(deadlines);
    }

    @EndSaga
    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationSucceededEvent event, DeadlineManager deadlines) {
        cancelWatchdog(deadlines);
    }

    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationFailedEvent event, DeadlineManager deadlines) {
        if (event.kind() == FailureKind.NOT_SENT) {
            notSentFailures++;
        } else if (event.kind() == FailureKind.RATE_LIMITED) {
            rateLimitedFailures++;
        }
        if (event.retryAt() != null) {
            deadlines.schedule(event.retryAt(), AttemptDue.NAME, new AttemptDue(AttemptTrigger.RETRY));
        }
    }

    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationOutcomeUnknownEvent event) {
        // never a retry: the reconciliation saga reads back, or an operator decides
        earlierAttemptMayHaveLanded = true;
    }

    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationReconciledEvent event, Attempts attempts, DeadlineManager deadlines,
                   PublishingProperties properties) {
        if (event.result() == ReconciliationResult.FOUND) {
            cancelWatchdog(deadlines);
            SagaLifecycle.end();
        } else if (event.result() == ReconciliationResult.NOT_FOUND
                && event.source() == ReconciliationSource.AUTOMATIC) {
            // the runner re-attempts only where the connection opted in; otherwise an operator decides
            attemptNow(AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND, attempts, deadlines, properties);
        }
    }

    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationExecutionRequestedEvent event, Attempts attempts, DeadlineManager deadlines,
                   PublishingProperties properties) {
        attemptNow(event.trigger(), attempts, deadlines, properties);
    }

    @EndSaga
    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationAbandonedEvent event, DeadlineManager deadlines) {
        cancelWatchdog(deadlines);
    }

    /**
     * Hands the attempt to the runner, which starts it once this transaction committed, and sets
     * the watchdog in the same transaction: a node that dies in between leaves the watchdog behind.
     * The opt-in re-attempt after not-found needs none: the runner may rightly decline it.
     */
    private void attemptNow(AttemptTrigger trigger, Attempts attempts, DeadlineManager deadlines,
                            PublishingProperties properties) {
        attempts.run(plan(trigger));
        cancelWatchdog(deadlines);
        if (trigger != AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND) {
            watchdogId = deadlines.schedule(properties.watchdogDelay(), WATCHDOG, new AttemptDue(trigger));
        }
    }

    private AttemptPlan plan(AttemptTrigger trigger) {
        return new AttemptPlan(publicationId, workspaceId, channelId, action, content, scheduledAt, trigger,
                earlierAttemptMayHaveLanded, lastAttemptNo, lastAttemptStartedAt, notSentFailures,
                rateLimitedFailures);
    }

    private void cancelWatchdog(DeadlineManager deadlines) {
        if (watchdogId != null) {
            deadlines.cancelSchedule(WATCHDOG, watchdogId);
            watchdogId = null;
        }
    }
}
