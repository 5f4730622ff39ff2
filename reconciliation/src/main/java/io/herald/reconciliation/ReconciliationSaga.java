package io.herald.reconciliation;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReadBackRequestedEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReconciliationResult;
import java.time.Duration;
import java.time.Instant;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.annotation.DeadlineHandler;
import org.axonframework.modelling.saga.EndSaga;
import org.axonframework.modelling.saga.SagaEventHandler;
import org.axonframework.modelling.saga.SagaLifecycle;
import org.axonframework.modelling.saga.StartSaga;
import org.axonframework.spring.stereotype.Saga;

/**
 * Follows a publication and, whenever an attempt's outcome is unknown, reads back at the provider:
 * first after the settle delay, then on the bounded retry schedule for as long as reads are
 * inconclusive. A found or not-found result — automatic or an operator's — stops the reads;
 * success or abandonment ends the saga.
 */
@Saga
@ProcessingGroup(ReconciliationSaga.PROCESSING_GROUP)
public class ReconciliationSaga {

    public static final String PROCESSING_GROUP = "reconciliation-saga";
    static final String ASSOCIATION = "publicationId";

    private PublicationId publicationId;
    private WorkspaceId workspaceId;
    private ChannelId channelId;
    private PublicationAction action;
    private Content content;
    private int attemptNo;
    private Instant attemptStartedAt;
    private int reads;
    private boolean settled;

    @StartSaga
    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationRequestedEvent event) {
        publicationId = event.publicationId();
        workspaceId = event.workspaceId();
        channelId = event.channelId();
        action = event.action();
        content = event.content();
    }

    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationAttemptedEvent event, DeadlineManager deadlines) {
        attemptNo = event.attemptNo();
        attemptStartedAt = event.startedAt();
        reads = 0;
        settled = false;
        deadlines.cancelAllWithinScope(ReadBackDue.NAME);
    }

    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationOutcomeUnknownEvent event, DeadlineManager deadlines,
                   ReconciliationProperties properties) {
        if (event.attemptNo() != attemptNo) {
            return;
        }
        deadlines.schedule(properties.settleDelay(), ReadBackDue.NAME, new ReadBackDue(attemptNo));
    }

    /** An operator asked to read back now (e.g. after fixing credentials). */
    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationReadBackRequestedEvent event, ReadBacks readBacks) {
        readBacks.run(plan(++reads));
    }

    @DeadlineHandler(deadlineName = ReadBackDue.NAME)
    public void readBack(ReadBackDue due, ReadBacks readBacks, DeadlineManager deadlines,
                         ReconciliationProperties properties) {
        if (due.attemptNo() != attemptNo || settled) {
            return;
        }
        reads++;
        readBacks.run(plan(reads));
        // scheduled before the result is known, so a crash cannot lose the next read; a result
        // that settles the question cancels it
        if (reads <= properties.retrySchedule().size()) {
            Duration next = properties.retrySchedule().get(reads - 1);
            deadlines.schedule(next, ReadBackDue.NAME, new ReadBackDue(attemptNo));
        }
    }

    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationReconciledEvent event, DeadlineManager deadlines) {
        if (event.result() == ReconciliationResult.UNKNOWN) {
            return;
        }
        settled = true;
        deadlines.cancelAllWithinScope(ReadBackDue.NAME);
        if (event.result() == ReconciliationResult.FOUND) {
            SagaLifecycle.end();
        }
    }

    @EndSaga
    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationSucceededEvent event, DeadlineManager deadlines) {
        deadlines.cancelAllWithinScope(ReadBackDue.NAME);
    }

    @EndSaga
    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationAbandonedEvent event, DeadlineManager deadlines) {
        deadlines.cancelAllWithinScope(ReadBackDue.NAME);
    }

    private ReadBackPlan plan(int readNo) {
        return new ReadBackPlan(publicationId, workspaceId, channelId, action, content, attemptNo, attemptStartedAt,
                readNo);
    }
}
