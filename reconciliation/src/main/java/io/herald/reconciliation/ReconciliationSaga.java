package io.herald.reconciliation;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReadBackRequestedEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReconciliationResult;
import java.time.Duration;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.annotation.DeadlineHandler;
import org.axonframework.modelling.saga.EndSaga;
import org.axonframework.modelling.saga.SagaEventHandler;
import org.axonframework.modelling.saga.SagaLifecycle;
import org.axonframework.modelling.saga.StartSaga;
import org.axonframework.spring.stereotype.Saga;

/**
 * Whenever an attempt's outcome is unknown, reads back at the provider: first after the settle
 * delay, then on the bounded retry schedule for as long as reads are inconclusive. A found or
 * not-found result — automatic or an operator's — stops the reads; success or abandonment ends the
 * saga. It starts with the first unknown outcome, so a publication that never had one costs it
 * nothing.
 */
@Saga
@ProcessingGroup(ReconciliationSaga.PROCESSING_GROUP)
public class ReconciliationSaga {

    public static final String PROCESSING_GROUP = "reconciliation-saga";
    static final String ASSOCIATION = "publicationId";

    private PublicationId publicationId;
    private WorkspaceId workspaceId;
    private int attemptNo;
    private int reads;
    private boolean settled;
    /** The one read-back deadline pending, if any; cancelled by id (a scope-wide cancel scans every deadline). */
    private String readBackId;

    @StartSaga
    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationOutcomeUnknownEvent event, DeadlineManager deadlines,
                   ReconciliationProperties properties) {
        if (publicationId != null && event.attemptNo() < attemptNo) {
            return;
        }
        follow(event.publicationId(), event.workspaceId(), event.attemptNo(), deadlines);
        readBackId = deadlines.schedule(properties.settleDelay(), ReadBackDue.NAME, new ReadBackDue(attemptNo));
    }

    /** A new attempt after an unknown outcome: the old attempt's reads are moot. */
    @FollowsOpenReconciliation
    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationAttemptedEvent event, DeadlineManager deadlines) {
        follow(event.publicationId(), event.workspaceId(), event.attemptNo(), deadlines);
    }

    /** An operator asked to read back now (e.g. after fixing credentials). */
    @StartSaga
    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationReadBackRequestedEvent event, ReadBacks readBacks) {
        if (publicationId == null) {
            publicationId = event.publicationId();
            workspaceId = event.workspaceId();
            attemptNo = event.attemptNo();
        }
        readBacks.run(new ReadBackPlan(publicationId, workspaceId, attemptNo, ++reads));
    }

    @DeadlineHandler(deadlineName = ReadBackDue.NAME)
    public void readBack(ReadBackDue due, ReadBacks readBacks, DeadlineManager deadlines,
                         ReconciliationProperties properties) {
        readBackId = null;
        if (due.attemptNo() != attemptNo || settled) {
            return;
        }
        reads++;
        readBacks.run(new ReadBackPlan(publicationId, workspaceId, attemptNo, reads));
        // scheduled before the result is known, so a crash cannot lose the next read; a result
        // that settles the question cancels it
        if (reads <= properties.retrySchedule().size()) {
            Duration next = properties.retrySchedule().get(reads - 1);
            readBackId = deadlines.schedule(next, ReadBackDue.NAME, new ReadBackDue(attemptNo));
        }
    }

    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationReconciledEvent event, DeadlineManager deadlines) {
        if (event.result() == ReconciliationResult.UNKNOWN) {
            return;
        }
        settled = true;
        cancelReadBack(deadlines);
        if (event.result() == ReconciliationResult.FOUND) {
            SagaLifecycle.end();
        }
    }

    @EndSaga
    @FollowsOpenReconciliation
    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationSucceededEvent event, DeadlineManager deadlines) {
        cancelReadBack(deadlines);
    }

    @EndSaga
    @SagaEventHandler(associationProperty = ASSOCIATION)
    public void on(PublicationAbandonedEvent event, DeadlineManager deadlines) {
        cancelReadBack(deadlines);
    }

    private void follow(PublicationId publication, WorkspaceId workspace, int attempt, DeadlineManager deadlines) {
        publicationId = publication;
        workspaceId = workspace;
        attemptNo = attempt;
        reads = 0;
        settled = false;
        cancelReadBack(deadlines);
    }

    private void cancelReadBack(DeadlineManager deadlines) {
        if (readBackId != null) {
            deadlines.cancelSchedule(ReadBackDue.NAME, readBackId);
            readBackId = null;
        }
    }
}
