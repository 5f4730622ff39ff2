package io.herald.command.publishing;

import io.herald.platform.unitofwork.AfterCommit;
import io.herald.command.publishing.PublicationTimers.Kind;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationReleasedEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationResendDueEvent;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import java.time.Duration;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DisallowReplay;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.stereotype.Component;

/**
 * Starts the attempts that events make due now. It runs as a pooled streaming processor whose
 * batch is one transaction: each {@code StartAttempt} is a nested command of the batch, so the
 * batch's write-ahead {@code Attempted} events, their expiry rows and the processor's token commit
 * together, and the provider calls go out only after that commit. A redelivered event asks for an
 * attempt number that is no longer next, and the publication refuses it: no second call.
 *
 * <p>A batch that fails (typically a concurrent append to one of its publications by another node)
 * rolls back whole and is delivered again; that retry is split: it only writes a due-now timer row
 * per attempt, and the sweep starts them in its own batch, one at a time if they conflict again.
 */
@Component
@ProcessingGroup(PublicationDispatcher.PROCESSING_GROUP)
// a replay would ask again for every attempt ever started; the processor is never rebuilt
@DisallowReplay
public class PublicationDispatcher {

    public static final String PROCESSING_GROUP = "publication-dispatcher";

    private final AttemptStarter starts;
    private final PublicationTimers timers;
    private final DispatcherErrorHandler errors;

    public PublicationDispatcher(AttemptStarter starts, PublicationTimers timers, DispatcherErrorHandler errors) {
        this.starts = starts;
        this.timers = timers;
        this.errors = errors;
    }

    @EventHandler
    void on(PublicationRequestedEvent event) {
        if (!TimerRows.startsLater(event)) {
            due(event.publicationId(), 1, AttemptTrigger.INITIAL);
        }
    }

    @EventHandler
    void on(PublicationExecutionRequestedEvent event) {
        due(event.publicationId(), event.attemptNo(), event.trigger());
    }

    /** An upload, the post after its uploads, or the first comment after the post. */
    @EventHandler
    void on(PublicationNextStepDueEvent event) {
        due(event.publicationId(), event.attemptNo(), AttemptTrigger.NEXT_STEP);
    }

    /** An unknown create its channel lets Herald send again with the same key, at once. */
    @EventHandler
    void on(PublicationResendDueEvent event) {
        due(event.publicationId(), event.attemptNo(), AttemptTrigger.RESEND_SAME_KEY);
    }

    /** The publication decides whether its connection re-attempts without an operator. */
    @EventHandler
    void on(PublicationReconciledEvent event) {
        if (event.result() == ReconciliationResult.NOT_FOUND && event.source() == ReconciliationSource.AUTOMATIC) {
            due(event.publicationId(), event.attemptNo() + 1, AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND);
        }
    }

    /** A held publication whose connection works again (connection health). */
    @EventHandler
    void on(PublicationReleasedEvent event) {
        due(event.publicationId(), event.attemptNo(), AttemptTrigger.RESUMED_AFTER_REAUTH);
    }

    private void due(PublicationId publicationId, int attemptNo, AttemptTrigger trigger) {
        if (errors.splitting()) {
            // the last batch failed: this retry only writes due-now rows, and the sweep starts them
            timers.setIn(publicationId, Kind.ATTEMPT_DUE, attemptNo, trigger, 0, Duration.ZERO);
            AfterCommit.run("the end of a split batch", errors::splitBatchCommitted);
            return;
        }
        starts.start(publicationId, attemptNo, trigger, false);
    }
}
