package io.herald.command.publishing;

import io.herald.platform.unitofwork.AfterCommit;
import io.herald.platform.threads.BackgroundThreads;
import io.herald.platform.commands.CommandTargets;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.messaging.MetaData;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Records the answers of attempts and reads in batches: whatever arrived while the previous batch
 * was committing goes into the next one, as nested commands of one unit of work (one transaction,
 * group commit in the application); on a conflict, each is recorded alone ({@link GroupCommit}). An
 * answer that cannot be recorded at all is left to the attempt's expiry row: unknown, never lost.
 */
@Component
public class ResultRecorder {

    private static final Logger log = LoggerFactory.getLogger(ResultRecorder.class);
    static final int MAX_BATCH = 100;
    private static final CommandTargetResolver TARGETS = new CommandTargets();

    /** A result command, the metadata it carries, and what to do with the publication's answer. */
    record Result(Object command, MetaData origin, Consumer<Object> then) {
        @Override
        public String toString() {
            return command.getClass().getSimpleName();
        }
    }

    private final CommandGateway commands;
    private final GroupCommit groupCommit;
    private final MeterRegistry meters;
    private final BlockingQueue<Result> pending = new LinkedBlockingQueue<>();
    private final Thread recorder;
    private volatile boolean running = true;
    private final AtomicInteger unrecorded = new AtomicInteger();

    public ResultRecorder(CommandGateway commands, GroupCommit groupCommit, MeterRegistry meters) {
        this.commands = commands;
        this.groupCommit = groupCommit;
        this.meters = meters;
        recorder = BackgroundThreads.named("herald-results").newThread(this::recordBatches);
        recorder.start();
    }

    @PreDestroy
    void stop() {
        running = false;
        recorder.interrupt();
    }

    public void record(Object command, MetaData origin) {
        record(command, origin, answer -> { });
    }

    /** Queues the command; {@code then} receives the publication's answer once it is committed. */
    public void record(Object command, MetaData origin, Consumer<Object> then) {
        unrecorded.incrementAndGet();
        pending.add(new Result(command, origin, then));
    }

    /** True when every result handed in has been recorded (or given up): what a graceful stop waits for. */
    public boolean idle() {
        return unrecorded.get() == 0;
    }

    private void recordBatches() {
        List<Result> batch = new ArrayList<>(MAX_BATCH);
        while (running) {
            try {
                batch.add(pending.take());
                pending.drainTo(batch, MAX_BATCH - 1);
                recordAll(batch);
            } catch (InterruptedException stopping) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.error("results could not be recorded; their attempts' expiry rows will tell", e);
            } finally {
                unrecorded.addAndGet(-batch.size());
                batch.clear();
            }
        }
    }

    void recordAll(List<Result> batch) {
        meters.summary("herald.results.batch_size").record(batch.size());
        List<Result> lost = groupCommit.inOneTransaction(batch, ResultRecorder::publicationOf, result -> {
            Object answer = commands.sendAndWait(GenericCommandMessage.asCommandMessage(result.command())
                    .andMetaData(result.origin()));
            AfterCommit.run("the answer to " + result, () -> result.then().accept(answer));
        });
        lost.forEach(result -> log.error("{} could not be recorded; the attempt's expiry row will tell", result));
    }

    /** The publication a result goes to: its command's {@code @TargetAggregateIdentifier}. */
    private static String publicationOf(Result result) {
        return TARGETS.resolveTarget(GenericCommandMessage.asCommandMessage(result.command())).getIdentifier();
    }
}
