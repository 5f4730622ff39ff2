package io.herald.reconciliation;

import io.herald.adapters.port.ChannelAdapters;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ChannelDirectory;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Component;

/**
 * Reads back at the provider and records what it found. Reads are safe to repeat. A connection
 * that cannot read back says so once, on the first read, and the case waits for an operator.
 */
@Component
@EnableConfigurationProperties(ReconciliationProperties.class)
public class ReadBackRunner implements ReadBacks {

    private static final Logger log = LoggerFactory.getLogger(ReadBackRunner.class);

    private final CommandGateway commands;
    private final ChannelDirectory directory;
    private final PublicationHistory history;
    private final ChannelAdapters adapters;
    private final Clock clock;
    private final MeterRegistry meters;
    private final ExecutorService executor = Executors.newFixedThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "herald-read-backs");
        thread.setDaemon(true);
        // background work: where the JVM maps priorities to the OS, requests are answered first (README)
        thread.setPriority(Thread.MIN_PRIORITY);
        return thread;
    });

    public ReadBackRunner(CommandGateway commands, ChannelDirectory directory, PublicationHistory history,
                          ChannelAdapters adapters, Clock clock, MeterRegistry meters) {
        this.commands = commands;
        this.directory = directory;
        this.history = history;
        this.adapters = adapters;
        this.clock = clock;
        this.meters = meters;
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }

    @Override
    public void run(ReadBackPlan plan) {
        MetaData origin = CurrentUnitOfWork.isStarted()
                ? CurrentUnitOfWork.get().getMessage().getMetaData().subset("correlationId", "actor")
                : MetaData.emptyInstance();
        if (CurrentUnitOfWork.isStarted()) {
            CurrentUnitOfWork.get().afterCommit(uow -> executor.execute(() -> readSafely(plan, origin)));
        } else {
            executor.execute(() -> readSafely(plan, origin));
        }
    }

    /** A read that breaks is logged; the saga's next scheduled read (set before this one ran) tries again. */
    private void readSafely(ReadBackPlan plan, MetaData origin) {
        try {
            read(plan, origin);
        } catch (RuntimeException e) {
            log.error("read-back {} of {} could not start", plan.readNo(), plan.publicationId(), e);
        }
    }

    private void read(ReadBackPlan plan, MetaData origin) {
        Optional<PublicationHistory.AttemptFacts> attempt = history.attempt(plan.publicationId(), plan.attemptNo());
        if (attempt.isEmpty()) {
            log.error("read-back {} of {}: attempt {} is not in the publication's history", plan.readNo(),
                    plan.publicationId(), plan.attemptNo());
            return;
        }
        PublicationHistory.AttemptFacts facts = attempt.get();
        Optional<ChannelConnection> connection = directory.find(plan.workspaceId(), facts.channelId());
        if (connection.isEmpty()) {
            record(plan, origin, ReconciliationResult.UNKNOWN, null,
                    "read-back unavailable: channel " + facts.channelId() + " no longer exists");
            return;
        }
        ReadBackRequest request = new ReadBackRequest(plan.publicationId(), plan.attemptNo(), facts.action(),
                facts.content(), facts.startedAt(), connection.get());
        adapters.forType(connection.get().type()).readBack(request)
                .thenAcceptAsync(outcome -> recordOutcome(plan, origin, outcome), executor)
                .exceptionally(failure -> {
                    log.error("read-back {} of {} failed unexpectedly", plan.readNo(), plan.publicationId(), failure);
                    return null;
                });
    }

    private void recordOutcome(ReadBackPlan plan, MetaData origin, ReadBackOutcome outcome) {
        meters.counter("herald.read_backs", "result", outcome.getClass().getSimpleName().toLowerCase()).increment();
        if (outcome instanceof ReadBackOutcome.Found found) {
            record(plan, origin, ReconciliationResult.FOUND, found.providerRef(), found.evidence());
        } else if (outcome instanceof ReadBackOutcome.NotFound notFound) {
            record(plan, origin, ReconciliationResult.NOT_FOUND, null, notFound.detail());
        } else if (outcome instanceof ReadBackOutcome.Unknown unknown) {
            record(plan, origin, ReconciliationResult.UNKNOWN, null, "read-back inconclusive: " + unknown.reason());
        } else if (outcome instanceof ReadBackOutcome.Unavailable unavailable) {
            if (plan.readNo() == 1) {
                record(plan, origin, ReconciliationResult.UNKNOWN, null,
                        "read-back unavailable: " + unavailable.reason());
            } else {
                log.info("read-back {} of {} still unavailable: {}", plan.readNo(), plan.publicationId(),
                        unavailable.reason());
            }
        }
    }

    private void record(ReadBackPlan plan, MetaData origin, ReconciliationResult result, ProviderRef ref,
                        String detail) {
        Object correlationId = origin.get("correlationId");
        MDC.put("publicationId", plan.publicationId().value());
        if (correlationId != null) {
            MDC.put("correlationId", correlationId.toString());
        }
        try {
            log.info("read-back {} of attempt {} of {}: {} ({})", plan.readNo(), plan.attemptNo(),
                    plan.publicationId(), result, detail);
            commands.sendAndWait(GenericCommandMessage.asCommandMessage(new RecordReconciliationCommand(
                    plan.publicationId(), plan.attemptNo(), result, ref, detail, clock.instant())).andMetaData(origin));
        } catch (RuntimeException e) {
            log.error("read-back result for {} could not be recorded", plan.publicationId(), e);
        } finally {
            MDC.remove("publicationId");
            MDC.remove("correlationId");
        }
    }
}
