package io.herald.command.publication;

import io.herald.command.publishing.GroupCommit;
import io.herald.contracts.publication.RequestPublicationCommand;
import io.herald.platform.database.DatabaseUnavailableException;
import io.herald.platform.database.DatabaseWatch;
import io.herald.platform.logging.MdcScope;
import io.herald.platform.tracing.Traces;
import io.herald.platform.unitofwork.AfterCommit;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.stereotype.Component;

/**
 * Group commit for intake: new publication requests that arrive while earlier ones are committing
 * are stored together, as nested commands of one unit of work, so their events and entry rows
 * commit in one transaction instead of one each. Each request is still answered only after its
 * event committed. If the batch fails (typically a request that exists already, or two copies of
 * one request in the batch), every request of it is sent again alone, exactly as without a batch,
 * and gets its own answer or its own failure.
 */
@Component
public class IntakeCommit {

    private static final Logger log = LoggerFactory.getLogger(IntakeCommit.class);
    /** Tomcat's request threads (64) bound what can wait; a batch takes at most this many. */
    static final int MAX_BATCH = 64;
    /** Two batches can commit at once, so one batch's round trips to the database do not idle the other core. */
    private static final int COMMITTERS = 2;
    /**
     * Requests of one entry and channel keep their order of arrival (their line's order); requests
     * of different lines are stored in one order in every batch, so two batches committing at once
     * (on this node or another) take their lines' row locks in the same order and do not deadlock
     * over them; a batch that failed for any reason is sent again one request at a time.
     */
    private static final Comparator<Pending> LINE_ORDER = Comparator
            .<Pending, String>comparing(p -> p.request().workspaceId().value())
            .thenComparing(p -> p.request().calendarEntryId())
            .thenComparing(p -> p.request().channelId().value());

    /** A request waiting to be stored: its command, the log context of its HTTP request, its answer. */
    private record Pending(CommandMessage<?> message, Map<String, String> context, CompletableFuture<Object> answer) {
        RequestPublicationCommand request() {
            return (RequestPublicationCommand) message.getPayload();
        }
    }

    /** How often a waiting request asks whether the database went away meanwhile. */
    private static final long WATCH_MILLIS = 250;

    private final CommandGateway commands;
    private final GroupCommit groupCommit;
    private final DatabaseWatch database;
    private final Traces traces;
    private final DistributionSummary batchSizes;
    private final BlockingQueue<Pending> pending = new LinkedBlockingQueue<>();
    private final List<Thread> committers = new ArrayList<>();
    private volatile boolean running = true;

    public IntakeCommit(CommandGateway commands, GroupCommit groupCommit, MeterRegistry meters,
                        DatabaseWatch database, Traces traces) {
        this.commands = commands;
        this.traces = traces;
        this.groupCommit = groupCommit;
        this.database = database;
        this.batchSizes = meters.summary("herald.intake.batch_size");
        for (int i = 0; i < COMMITTERS; i++) {
            // not a background thread (BackgroundThreads): requests wait on it, so it keeps their priority
            Thread committer = new Thread(this::commitBatches, "herald-intake-" + i);
            committer.setDaemon(true);
            committers.add(committer);
            committer.start();
        }
    }

    /** After the web server's graceful stop: no request is left to wait, unless one raced the stop. */
    @PreDestroy
    void stop() {
        running = false;
        committers.forEach(Thread::interrupt);
        refuseWaiting();
    }

    private void refuseWaiting() {
        List<Pending> left = new ArrayList<>();
        pending.drainTo(left);
        left.forEach(p -> p.answer().completeExceptionally(new IllegalStateException("Herald is stopping")));
    }

    /**
     * Sends a command that creates a publication ({@link Publication#REQUEST_NEW}) and waits until
     * it committed; answers and fails as {@link CommandGateway#sendAndWait(Object)} would. If the
     * database stops answering meanwhile ({@link DatabaseWatch}), the request stops waiting with a
     * {@link DatabaseUnavailableException} rather than holding its thread until the committer's read
     * times out; the request may still commit later, and sent again it is answered as a repeat.
     */
    @SuppressWarnings("unchecked")
    public <R> R sendAndWait(CommandMessage<RequestPublicationCommand> message) {
        Map<String, String> context = MDC.getCopyOfContextMap();
        // the committer's thread is in no span: the request's trace goes with the command
        String traceparent = traces.current();
        CommandMessage<?> traced = traceparent == null ? message
                : message.andMetaData(Map.of(Traces.TRACEPARENT, traceparent));
        CompletableFuture<Object> answer = new CompletableFuture<>();
        pending.add(new Pending(traced, context == null ? Map.of() : context, answer));
        if (!running) {
            // stopping: nothing takes from the queue any more
            refuseWaiting();
        }
        try {
            while (true) {
                try {
                    return (R) answer.get(WATCH_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException stillWaiting) {
                    if (database.unreachable()) {
                        throw new DatabaseUnavailableException("the database stopped answering while the request was stored");
                    }
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the request was being stored", e);
        }
    }

    private void commitBatches() {
        List<Pending> batch = new ArrayList<>(MAX_BATCH);
        while (running) {
            try {
                batch.add(pending.take());
                pending.drainTo(batch, MAX_BATCH - 1);
                commit(batch);
            } catch (InterruptedException stopping) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | Error e) {
                // never expected: whoever still waits gets the failure rather than waiting forever
                log.error("a batch of publication requests could not be stored", e);
                batch.forEach(p -> p.answer().completeExceptionally(e));
            } finally {
                batch.clear();
            }
        }
    }

    private void commit(List<Pending> batch) {
        batchSizes.record(batch.size());
        if (batch.size() > 1) {
            batch.sort(LINE_ORDER);
            try {
                groupCommit.run(() -> batch.forEach(p -> {
                    Object answer = send(p);
                    AfterCommit.run("the answer to " + p.request().publicationId(), () -> p.answer().complete(answer));
                }));
                return;
            } catch (RuntimeException batchFailed) {
                log.debug("a batch of {} publication requests failed ({}); sending each alone", batch.size(),
                        batchFailed.toString());
            }
        }
        for (Pending p : batch) {
            if (!p.answer().isDone()) {
                try {
                    p.answer().complete(send(p));
                } catch (RuntimeException | Error failed) {
                    p.answer().completeExceptionally(failed);
                }
            }
        }
    }

    /** Within a batch a nested command, alone a unit of work of its own, with its request's log context either way. */
    private Object send(Pending p) {
        try (var ignored = new MdcScope(p.context())) {
            return commands.sendAndWait(p.message());
        }
    }
}
