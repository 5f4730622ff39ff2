package io.herald.platform.projection;

import org.springframework.boot.context.properties.EnableConfigurationProperties;

import io.herald.platform.projection.RebuildProgress.Tracker;
import io.herald.platform.threads.BackgroundThreads;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import jakarta.annotation.PreDestroy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.AbstractEventProcessor;
import org.axonframework.eventhandling.EventHandlerInvoker;
import org.axonframework.eventhandling.Segment;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.async.SequentialPerAggregatePolicy;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.eventhandling.tokenstore.UnableToClaimTokenException;
import org.axonframework.messaging.ResultMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.unitofwork.RollbackConfigurationType;
import org.axonframework.serialization.upcasting.event.EventUpcaster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import io.herald.platform.database.LongStatements;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Rebuilds a projection from the history in one pass over the store, in one transaction.
 *
 * <p>The processor stops on this node and its segments are claimed here, so no node writes the
 * projection meanwhile (another node that still holds a segment makes the rebuild refuse). Then,
 * in one transaction: the projection's {@code @ResetHandler}s empty its tables, and every stored
 * event of the types it handles is handed to its own {@code @EventHandler}s in store order, read in
 * one snapshot of the store ({@link StoredEventPages}), a page of {@code herald.rebuild.page-size}
 * events per batch; the claims are released and the transaction commits. Readers see the old rows until the commit and
 * the new ones after; a rebuild that fails or a node that dies mid-way leaves the old rows.
 *
 * <p>The processor's tokens are not moved: started again, it handles the events since it stopped
 * a second time, and the projections ignore an event at or below a row's last applied sequence
 * number, so nothing appended during the rebuild is lost or applied twice.
 *
 * <p>Each aggregate's events arrive in sequence order, which is all the live processor guarantees
 * too: its segments handle different aggregates in parallel, so a projection may only rely on the
 * order of each aggregate's own events. A page is one batch to the handlers, so a publication's
 * events in one page write its row once. Only processors sequenced per aggregate are rebuilt here;
 * one configured with any other sequencing policy is rebuilt by Axon's token reset instead.
 *
 * <p>The pages of one rebuild share a {@link RebuildScope}: a handler may keep rows that are still
 * changing from one page to the next and write them once, after the last page, in the same
 * transaction. A projection that works on the stored JSON itself ({@link StoredEventFold}) is
 * handed the stored rows of its aggregate types instead of deserialized events.
 *
 * <p>While it runs, {@link #progress} tells how many of the events counted at its start it has
 * handled, at what rate, and about how long is left; the log says so every few seconds.
 */
@Component
@EnableConfigurationProperties(RebuildProperties.class)
public class ProjectionRebuilder {

    private static final Logger log = LoggerFactory.getLogger(ProjectionRebuilder.class);
    /**
     * A resource of every rebuild batch's unit of work: handlers that report what happens (the
     * webhook outbox) do nothing in a rebuild, which replays what was reported long ago.
     */
    public static final String REBUILDING = ProjectionRebuilder.class.getName() + ".rebuilding";

    /** How often a running rebuild logs how far it is. */
    private static final long PROGRESS_LOG_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** Pages read ahead of the one being handled. */
    private static final int READ_AHEAD = 2;

    private final EventProcessingConfiguration processing;
    private final TokenStore tokenStore;
    private final TransactionTemplate transaction;
    private final StoredEventPages store;
    private final JdbcTemplate jdbc;
    /** The projections whose rebuild reads the stored events themselves, by processor name. */
    private final Map<String, StoredEventFold> storedEventFolds;
    /** Two threads per projection being rebuilt (one reads, one writes); several rebuilds go on side by side. */
    private final ExecutorService worker =
            Executors.newCachedThreadPool(BackgroundThreads.named("herald-projection-rebuild"));
    /** The projections this node is rebuilding, and the cause of the last failed rebuild of each. */
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final Map<String, String> failed = new ConcurrentHashMap<>();
    /** How far this node's last rebuild of each projection got. */
    private final Map<String, Tracker> progress = new ConcurrentHashMap<>();

    public ProjectionRebuilder(EventProcessingConfiguration processing, TokenStore tokenStore,
                               NamedParameterJdbcTemplate jdbc, PlatformTransactionManager transactions,
                               org.axonframework.config.Configuration axon, ObjectProvider<EventUpcaster> upcasters,
                               RebuildProperties properties, List<StoredEventFold> storedEventFolds) {
        this.processing = processing;
        this.tokenStore = tokenStore;
        this.transaction = new TransactionTemplate(transactions);
        this.jdbc = jdbc.getJdbcTemplate();
        this.store = new StoredEventPages(jdbc, transactions, axon.eventSerializer(), axon.upcasterChain(),
                mayChangeTypes(upcasters.stream().toList()), properties.pageSize());
        this.storedEventFolds = storedEventFolds.stream()
                .collect(Collectors.toUnmodifiableMap(StoredEventFold::processingGroup, fold -> fold));
    }

    /**
     * Whether an upcaster may read a stored type as another type, so that a rebuild must read
     * every stored event, not only the types its projection handles. A projection's rebuild that
     * read every type took 41.5 s on a store of a million events, of which it handled 18.
     */
    static boolean mayChangeTypes(List<EventUpcaster> upcasters) {
        return upcasters.stream().anyMatch(upcaster -> !(upcaster instanceof RevisionUpcaster));
    }

    /**
     * Starts a rebuild of projection {@code name}; it goes on in the background.
     *
     * @throws HeraldRejection {@code not_found} for the dispatcher or an unknown name;
     *                         {@code concurrent_modification} while another node runs the
     *                         projection or this node is already rebuilding it
     */
    public void rebuild(String name) {
        StreamingEventProcessor processor = processing.eventProcessor(name, StreamingEventProcessor.class)
                .filter(StreamingEventProcessor::supportsReset)
                // the dispatcher is a processor too, but replaying it would start attempts again
                .orElseThrow(() -> new HeraldRejection(ErrorCode.NOT_FOUND, "no projection named " + name));
        if (!running.add(name)) {
            throw new HeraldRejection(ErrorCode.CONCURRENT_MODIFICATION, "projection " + name + " is being rebuilt");
        }
        try {
            log.info("rebuilding projection {} from the history", name);
            stop(processor);
            if (!(processor instanceof AbstractEventProcessor handlers) || !perAggregate(name)) {
                // store order, through Axon: the segments start again from the beginning of the store
                processor.resetTokens();
                processor.start();
                running.remove(name);
                return;
            }
            // fails fast, before anything is deleted, while another node holds a segment
            transaction.executeWithoutResult(status -> claimAndRelease(name));
            failed.remove(name);
            Tracker tracked = new Tracker();
            progress.put(name, tracked);
            worker.execute(() -> fold(processor, handlers.eventHandlerInvoker(), tracked));
        } catch (UnableToClaimTokenException e) {
            processor.start();
            running.remove(name);
            throw new HeraldRejection(ErrorCode.CONCURRENT_MODIFICATION, "projection " + name
                    + " is running on another node; stop it there (or on every other node) and ask again");
        } catch (RuntimeException e) {
            processor.start();
            running.remove(name);
            throw e;
        }
    }

    /** True while this node rebuilds the projection. */
    public boolean isRebuilding(String name) {
        return running.contains(name);
    }

    /** Why this node's last rebuild of the projection failed; empty if it did not. */
    public Optional<String> failure(String name) {
        return Optional.ofNullable(failed.get(name));
    }

    /** How far this node's running or last rebuild of the projection got; empty if it rebuilt none. */
    public Optional<RebuildProgress> progress(String name) {
        return Optional.ofNullable(progress.get(name)).map(Tracker::snapshot);
    }

    /** Herald names each processor after its one processing group. */
    private boolean perAggregate(String name) {
        return processing.sequencingPolicy(name) instanceof SequentialPerAggregatePolicy;
    }

    private void fold(StreamingEventProcessor processor, EventHandlerInvoker handlers, Tracker tracked) {
        String name = processor.getName();
        long started = System.nanoTime();
        try {
            Long events = transaction.execute(status -> {
                // one transaction over the whole store: no statement timeout of ordinary work applies
                LongStatements.liftTimeouts(jdbc);
                int[] segments = claimAll(name);
                handlers.performReset();
                StoredEventFold storedEvents = storedEventFolds.get(name);
                long handled = storedEvents == null ? foldEveryStream(name, handlers, tracked)
                        : foldEveryRow(name, storedEvents, tracked);
                for (int segment : segments) {
                    tokenStore.releaseClaim(name, segment);
                }
                return handled;
            });
            tracked.finish();
            double seconds = (System.nanoTime() - started) / 1e9;
            log.info("projection {} rebuilt from {} stored events in {} s ({} events/s)", name, events,
                    String.format("%.1f", seconds), Math.round(events / Math.max(seconds, 1e-3)));
        } catch (RuntimeException e) {
            failed(name, tracked, e);
        } catch (Error e) {
            // a class missing from the build or memory run out: shown as a failed rebuild, not one that runs forever
            failed(name, tracked, e);
            throw e;
        } finally {
            // started before it may be asked again, so a second rebuild finds it running and stops it
            try {
                processor.start();
            } finally {
                running.remove(name);
            }
        }
    }

    private void failed(String name, Tracker tracked, Throwable cause) {
        tracked.finish();
        log.error("rebuild of projection {} failed; its rows are as they were before", name, cause);
        failed.put(name, "rebuild failed: " + cause.getClass().getSimpleName());
    }

    /**
     * Hands every stored event the projection may handle to its handlers, a page at a time. A
     * second thread reads and deserializes the next pages (on a connection of its own, outside the
     * rebuild's transaction) while this one handles the current page and writes its rows.
     */
    private long foldEveryStream(String name, EventHandlerInvoker handlers, Tracker tracked) {
        StoredEventPages.Types stored = store.storedTypes(handlers);
        tracked.total = stored.events();
        List<String> types = stored.names();
        if (types.isEmpty()) {
            return 0;
        }
        RebuildScope scope = new RebuildScope();
        long handled = this.<TrackedEventMessage<?>>foldPages(name, tracked,
                pages -> store.readEveryStream(types, pages),
                page -> handle(handlers, page, scope));
        scope.end();
        return handled;
    }

    /**
     * Hands every stored event of the fold's aggregate types to it as stored, a page at a time: no
     * event is upcast or deserialized. Read ahead on a second thread, as {@link #foldEveryStream}.
     */
    private long foldEveryRow(String name, StoredEventFold fold, Tracker tracked) {
        Set<String> types = fold.aggregateTypes();
        tracked.total = store.storedEventsOf(types);
        StoredEventFold.Pass pass = fold.begin();
        long handled = this.<StoredEventRow>foldPages(name, tracked, pages -> store.readEveryRow(types, pages),
                pass::page);
        pass.finish();
        return handled;
    }

    /** What reads the pages: every page into the queue, then an empty one. */
    private interface PageReader<T> {
        void readInto(BlockingQueue<List<T>> pages) throws InterruptedException;
    }

    private <T> long foldPages(String name, Tracker tracked, PageReader<T> reader, Consumer<List<T>> handler) {
        BlockingQueue<List<T>> pages = new ArrayBlockingQueue<>(READ_AHEAD);
        Future<?> reading = worker.submit(() -> {
            reader.readInto(pages);
            return null;
        });
        long handled = 0;
        long loggedAt = System.nanoTime();
        try {
            while (true) {
                List<T> page = pages.poll(1, TimeUnit.SECONDS);
                if (page == null) {
                    if (reading.isDone()) {
                        reading.get();
                        throw new IllegalStateException("the store's reader stopped before the last page");
                    }
                } else if (page.isEmpty()) {
                    return handled;
                } else {
                    handler.accept(page);
                    handled += page.size();
                    tracked.done = handled;
                    if (System.nanoTime() - loggedAt > PROGRESS_LOG_NANOS) {
                        loggedAt = System.nanoTime();
                        log.info("rebuilding {}", tracked.snapshot().describe(name));
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while rebuilding", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } finally {
            reading.cancel(true);
        }
    }

    /** One batch: the handlers see it as a processor's batch, so their per-batch writes apply. */
    private static void handle(EventHandlerInvoker handlers, List<TrackedEventMessage<?>> messages,
                               RebuildScope scope) {
        BatchingUnitOfWork<TrackedEventMessage<?>> batch = new BatchingUnitOfWork<>(messages);
        batch.resources().put(REBUILDING, Boolean.TRUE);
        batch.resources().put(RebuildScope.RESOURCE, scope);
        ResultMessage<?> result = batch.executeWithResult(() -> {
            TrackedEventMessage<?> event = batch.getMessage();
            if (handlers.canHandle(event, Segment.ROOT_SEGMENT)) {
                handlers.handle(event, Segment.ROOT_SEGMENT);
            }
            return null;
        }, RollbackConfigurationType.ANY_THROWABLE);
        if (result.isExceptional()) {
            Throwable cause = result.exceptionResult();
            throw cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
        }
    }

    private void claimAndRelease(String name) {
        for (int segment : claimAll(name)) {
            tokenStore.releaseClaim(name, segment);
        }
    }

    /** Claims every segment of the processor for this node; the claims hold until the transaction ends. */
    private int[] claimAll(String name) {
        int[] segments = tokenStore.fetchSegments(name);
        for (int segment : segments) {
            tokenStore.fetchToken(name, segment);
        }
        return segments;
    }

    private static void stop(StreamingEventProcessor processor) {
        try {
            processor.shutdownAsync().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping " + processor.getName(), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not stop " + processor.getName(), e.getCause());
        }
    }

    @PreDestroy
    void stopWorker() {
        worker.shutdownNow();
    }
}
