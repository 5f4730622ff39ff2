package io.herald.command.publishing;

import io.herald.command.publishing.PublicationTimers.Kind;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationReadBackRequestedEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.PublicationVanishedEvent;
import io.herald.contracts.publication.PublicationVerificationDueEvent;
import io.herald.contracts.publication.PublicationVerifiedEvent;
import io.herald.contracts.publication.ReconciliationResult;
import java.time.Duration;
import java.time.Instant;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.stereotype.Component;

/**
 * Keeps each publication's timer row in step with its events. A subscribing processor: it runs in
 * the transaction that appends the event, so the row commits or rolls back with it, and it never
 * replays history. Relative waits (attempt timeout, retry backoff, settle delay) start on the
 * database clock at commit; only a person's {@code scheduledAt} is an absolute time. The rows of
 * one batch of events are written together at its end ({@link TimerBatch}).
 */
@Component
@ProcessingGroup(TimerRows.PROCESSING_GROUP)
public class TimerRows {

    public static final String PROCESSING_GROUP = "publication-timers";

    private final TimerBatch timers;
    private final PublicationTimers rows;
    private final ReadBackPath readBacks;

    TimerRows(TimerBatch timers, PublicationTimers rows, ReadBackPath readBacks) {
        this.timers = timers;
        this.rows = rows;
        this.readBacks = readBacks;
    }

    /** A start in the future waits on a row; one due now is the dispatcher's. */
    static boolean startsLater(PublicationRequestedEvent event) {
        return event.scheduledAt() != null && event.scheduledAt().isAfter(event.requestedAt());
    }

    @EventHandler
    void on(PublicationRequestedEvent event) {
        if (startsLater(event)) {
            timers.setAt(event.publicationId(), Kind.ATTEMPT_DUE, 1, AttemptTrigger.INITIAL, event.scheduledAt());
        }
    }

    @EventHandler
    void on(PublicationAttemptedEvent event) {
        timers.setIn(event.publicationId(), Kind.ATTEMPT_EXPIRY, event.attemptNo(), null, 0,
                between(event.startedAt(), event.expiresAt()));
    }

    @EventHandler
    void on(PublicationSucceededEvent event) {
        timers.clear(event.publicationId());
    }

    /** The post is read again when due (a success the aggregate recorded just before, in the same batch). */
    @EventHandler
    void on(PublicationVerificationDueEvent event) {
        timers.setIn(event.publicationId(), Kind.VERIFY_DUE, event.attemptNo(), null, 1,
                between(event.scheduledAt(), event.dueAt()));
    }

    @EventHandler
    void on(PublicationVerifiedEvent event) {
        timers.clear(event.publicationId());
    }

    @EventHandler
    void on(PublicationVanishedEvent event) {
        timers.clear(event.publicationId());
    }

    @EventHandler
    void on(PublicationFailedEvent event) {
        if (event.retryAt() != null) {
            timers.setIn(event.publicationId(), Kind.ATTEMPT_DUE, event.attemptNo() + 1, AttemptTrigger.RETRY, 0,
                    between(event.failedAt(), event.retryAt()));
        } else {
            timers.clear(event.publicationId());
        }
    }

    @EventHandler
    void on(PublicationOutcomeUnknownEvent event) {
        timers.setIn(event.publicationId(), Kind.READ_BACK_DUE, event.attemptNo(), null, 1, readBacks.settleDelay());
    }

    /** Found or not found settles the reads; an inconclusive read leaves the schedule running. */
    @EventHandler
    void on(PublicationReconciledEvent event) {
        if (event.result() != ReconciliationResult.UNKNOWN) {
            timers.clear(event.publicationId());
        }
    }

    /** The next step starts now (the dispatcher asks for it): no read-back of an unknown upload is due. */
    @EventHandler
    void on(PublicationNextStepDueEvent event) {
        timers.clear(event.publicationId());
    }

    @EventHandler
    void on(PublicationReadBackRequestedEvent event) {
        // a conditional write: it must see the rows the batch wrote before it
        timers.flush();
        rows.readBackNow(event.publicationId(), event.attemptNo(), Integer.MAX_VALUE);
    }

    @EventHandler
    void on(PublicationAbandonedEvent event) {
        timers.clear(event.publicationId());
    }

    private static Duration between(Instant from, Instant to) {
        return from == null || to == null ? Duration.ZERO : Duration.between(from, to);
    }
}
