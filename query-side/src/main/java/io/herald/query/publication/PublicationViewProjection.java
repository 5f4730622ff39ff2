package io.herald.query.publication;

import io.herald.contracts.id.PublicationId;
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
import io.herald.contracts.publication.PublicationStepSkippedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.PublicationSupersededEvent;
import io.herald.contracts.publication.PublicationTargetedEvent;
import io.herald.contracts.publication.PublicationVanishDecidedEvent;
import io.herald.contracts.publication.PublicationVanishedEvent;
import io.herald.contracts.publication.PublicationVerifiedEvent;
import io.herald.contracts.publication.PublicationView;
import io.herald.platform.projection.RebuildScope;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Keeps {@code publication_view} in step with the publication events.
 *
 * <p>Idempotent: each row remembers the aggregate sequence number of the last event applied, and
 * an event at or below it (a redelivery after a crash, a second run over the same history) is
 * ignored, so applying the same events twice leaves the table as applying them once.
 */
@Component
@ProcessingGroup(PublicationViewProjection.PROCESSING_GROUP)
public class PublicationViewProjection {

    public static final String PROCESSING_GROUP = "publication-view";

    private static final Logger log = LoggerFactory.getLogger(PublicationViewProjection.class);
    /** The aggregate type of the publication events in the store. */
    private static final String PUBLICATION = "Publication";

    private final PublicationRows repository;
    private final List<PublicationTransitionListener> listeners;
    private final boolean batched;

    public PublicationViewProjection(PublicationViewRepository repository) {
        this(repository, List.of());
    }

    @Autowired
    public PublicationViewProjection(PublicationViewRepository repository,
                                     List<PublicationTransitionListener> listeners) {
        this(repository, listeners, true);
    }

    /**
     * Over other rows: a point-in-time replay applies the very same handlers to rows in memory,
     * each event at once ({@code batched} false), whatever unit of work the caller is in.
     */
    PublicationViewProjection(PublicationRows rows, List<PublicationTransitionListener> listeners, boolean batched) {
        this.repository = rows;
        this.listeners = List.copyOf(listeners);
        this.batched = batched;
    }

    @EventHandler
    public void on(PublicationRequestedEvent event, @SequenceNumber long sequence) {
        PendingRows pending = pendingRows();
        if (pending == null) {
            repository.insert(PublicationTransitions.requested(event), sequence);
        } else if (!pending.rows.containsKey(event.publicationId())) {
            pending.rows.put(event.publicationId(),
                    new PublicationViewRepository.Stored(PublicationTransitions.requested(event), sequence));
        }
    }

    @EventHandler
    public void on(PublicationAttemptedEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.attempted(view, event));
    }

    @EventHandler
    public void on(PublicationSucceededEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.succeeded(view, event));
    }

    @EventHandler
    public void on(PublicationFailedEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.failed(view, event));
    }

    @EventHandler
    public void on(PublicationOutcomeUnknownEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.outcomeUnknown(view, event));
    }

    @EventHandler
    public void on(PublicationResendDueEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.resendDue(view, event));
    }

    @EventHandler
    public void on(PublicationReconciledEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.reconciled(view, event));
    }

    @EventHandler
    public void on(PublicationExecutionRequestedEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.executionRequested(view, event));
    }

    @EventHandler
    public void on(PublicationNextStepDueEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.nextStepDue(view, event));
    }

    @EventHandler
    public void on(PublicationStepSkippedEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.stepSkipped(view, event));
    }

    @EventHandler
    public void on(PublicationAbandonedEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.abandoned(view, event));
    }

    @EventHandler
    public void on(PublicationTargetedEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.targeted(view, event));
    }

    @EventHandler
    public void on(PublicationSupersededEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.superseded(view, event));
    }

    @EventHandler
    public void on(PublicationNothingToChangeEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.nothingToChange(view, event));
    }

    @EventHandler
    public void on(PublicationHeldEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.held(view, event));
    }

    @EventHandler
    public void on(PublicationReleasedEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.released(view, event));
    }

    @EventHandler
    public void on(PublicationVerifiedEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.verified(view, event));
    }

    @EventHandler
    public void on(PublicationVanishedEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.vanished(view, event));
    }

    @EventHandler
    public void on(PublicationVanishDecidedEvent event, @SequenceNumber long sequence) {
        apply(event.publicationId(), sequence, view -> PublicationTransitions.vanishDecided(view, event));
    }

    /** Before a rebuild from the history: the history writes every row again. */
    @ResetHandler
    public void reset() {
        log.info("clearing publication_view for a rebuild");
        repository.deleteAll();
        listeners.forEach(PublicationTransitionListener::reset);
    }

    private void apply(PublicationId id, long sequence, UnaryOperator<PublicationView> transition) {
        PendingRows pending = pendingRows();
        Optional<PublicationViewRepository.Stored> stored =
                pending == null ? repository.findStored(id) : pending.find(id);
        if (stored.isEmpty()) {
            // every stream starts with PublicationRequested (sequence 0), applied before anything else
            log.warn("publication {} has no view row; event at sequence {} not applied", id, sequence);
            return;
        }
        if (sequence <= stored.get().lastSequence()) {
            log.debug("publication {}: event at sequence {} already applied", id, sequence);
            return;
        }
        PublicationView next = transition.apply(stored.get().view());
        // in the batch's transaction, so what listeners write commits with the view row and the token
        for (PublicationTransitionListener listener : listeners) {
            listener.transitioned(stored.get().view(), next, sequence);
        }
        if (pending == null) {
            repository.update(next, sequence);
        } else {
            pending.rows.put(id, new PublicationViewRepository.Stored(next, sequence));
        }
    }

    /**
     * The rows read and changed by the batch of events being processed. The rows of every
     * publication the batch touches are read in one query when the first of them is needed, and the
     * changed rows are written in one JDBC batch when the batch's transaction commits: a batch costs
     * a read and a write, not a read and a write per event. Nothing is written if the batch rolls
     * back. Outside a unit of work (never the case for the processor) every event reads and writes
     * at once.
     *
     * <p>In a rebuild the rows are kept from one page to the next, and written once, after the last
     * page: a publication whose events lie on several pages is written once, not once a page, and
     * never read back. At most {@link #REBUILD_ROWS} are kept: past that, the least recently
     * changed half is written at the end of a page (read back if a later page changes it).
     */
    private PendingRows pendingRows() {
        if (!batched || !CurrentUnitOfWork.isStarted()) {
            return null;
        }
        UnitOfWork<?> root = CurrentUnitOfWork.get().root();
        RebuildScope rebuild = RebuildScope.of(root);
        if (rebuild != null) {
            PendingRows rows = rebuild.resource(PendingRows.KEY, () -> {
                PendingRows kept = new PendingRows(true);
                rebuild.atEnd(() -> kept.write(kept.rows.size()));
                return kept;
            });
            if (rows.batch != root) {
                rows.startBatch(root);
                root.onPrepareCommit(uow -> {
                    if (rows.rows.size() > REBUILD_ROWS) {
                        rows.write(rows.rows.size() - REBUILD_ROWS / 2);
                    }
                });
            }
            return rows;
        }
        return root.getOrComputeResource(PendingRows.KEY, key -> {
            PendingRows rows = new PendingRows(false);
            rows.startBatch(root);
            root.onPrepareCommit(uow -> repository.saveAll(List.copyOf(rows.rows.values())));
            return rows;
        });
    }

    /** Rows a rebuild keeps in memory between pages, at most. */
    static final int REBUILD_ROWS = 20_000;

    private final class PendingRows {
        static final String KEY = PendingRows.class.getName();
        /** In a rebuild, least recently changed first. */
        final Map<PublicationId, PublicationViewRepository.Stored> rows;
        private UnitOfWork<?> batch;
        /** The batch's publications, once their rows have been read, and those rows. */
        private Set<PublicationId> read;
        private Map<PublicationId, PublicationViewRepository.Stored> stored;

        PendingRows(boolean rebuild) {
            this.rows = new LinkedHashMap<>(16, 0.75f, rebuild);
        }

        void startBatch(UnitOfWork<?> next) {
            batch = next;
            read = null;
            stored = null;
        }

        /** Writes the {@code n} least recently changed rows and forgets them. */
        void write(int n) {
            List<PublicationViewRepository.Stored> written = new ArrayList<>(n);
            Iterator<PublicationViewRepository.Stored> eldest = rows.values().iterator();
            while (written.size() < n && eldest.hasNext()) {
                written.add(eldest.next());
                eldest.remove();
            }
            repository.saveAll(written);
        }

        Optional<PublicationViewRepository.Stored> find(PublicationId id) {
            PublicationViewRepository.Stored changed = rows.get(id);
            if (changed != null) {
                return Optional.of(changed);
            }
            if (read == null) {
                read = new HashSet<>(publicationsOf(batch));
                read.removeAll(rows.keySet());
                stored = repository.findStored(read);
            }
            // one the batch's messages do not name (a unit of work that is not a processor's batch) is read alone
            return read.contains(id) ? Optional.ofNullable(stored.get(id)) : repository.findStored(id);
        }
    }

    /**
     * The publications whose events are in the batch: the aggregate of each publication event. A
     * unit of work that is not a processor's batch names none; its rows are read one by one.
     */
    private static Set<PublicationId> publicationsOf(UnitOfWork<?> batch) {
        if (!(batch instanceof BatchingUnitOfWork<?> batching)) {
            return Set.of();
        }
        Set<PublicationId> ids = new HashSet<>();
        for (Message<?> message : batching.getMessages()) {
            if (message instanceof DomainEventMessage<?> event && PUBLICATION.equals(event.getType())) {
                ids.add(PublicationId.of(event.getAggregateIdentifier()));
            }
        }
        return ids;
    }
}
