package io.herald.command.publishing;

import io.herald.adapters.port.ChannelAdapters;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ChannelDirectory;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.command.channel.CapabilityProbes;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.RecordAttemptFailedCommand;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.RecordDuplicateSignalCommand;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
 * Runs attempts, strictly write-ahead: {@code StartAttempt} is sent from a thread of its own
 * after the saga's transaction committed; its result (the attempt number, committed) is the only
 * licence to call the provider; the provider's answer is recorded as a command. Nothing here
 * blocks an event processor, and nothing waits on the provider but an HTTP exchange.
 * If this node dies anywhere in between, the attempt's deadline turns it into an unknown outcome.
 */
@Component
@EnableConfigurationProperties(PublishingProperties.class)
public class AttemptRunner implements Attempts {

    private static final Logger log = LoggerFactory.getLogger(AttemptRunner.class);
    private static final Duration READ_BEFORE_CREATE_RETRY = Duration.ofMinutes(1);

    private final CommandGateway commands;
    private final ChannelDirectory directory;
    private final ChannelAdapters adapters;
    private final ConnectionThrottle throttle;
    private final CapabilityProbes probes;
    private final PublishingProperties properties;
    private final Clock clock;
    private final MeterRegistry meters;
    /** Starts and records; short work only, the provider calls themselves are asynchronous. */
    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(4, runnable -> {
        Thread thread = new Thread(runnable, "herald-attempts");
        thread.setDaemon(true);
        // background work: where the JVM maps priorities to the OS, requests are answered first (README)
        thread.setPriority(Thread.MIN_PRIORITY);
        return thread;
    });

    public AttemptRunner(CommandGateway commands, ChannelDirectory directory, ChannelAdapters adapters,
                         ConnectionThrottle throttle, CapabilityProbes probes, PublishingProperties properties,
                         Clock clock, MeterRegistry meters) {
        this.probes = probes;
        this.commands = commands;
        this.directory = directory;
        this.adapters = adapters;
        this.throttle = throttle;
        this.properties = properties;
        this.clock = clock;
        this.meters = meters;
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }

    @Override
    public void run(AttemptPlan plan) {
        MetaData origin = CurrentUnitOfWork.isStarted()
                ? CurrentUnitOfWork.get().getMessage().getMetaData().subset("correlationId", "actor")
                : MetaData.emptyInstance();
        if (CurrentUnitOfWork.isStarted()) {
            CurrentUnitOfWork.get().afterCommit(uow -> executor.execute(() -> start(plan, origin)));
        } else {
            executor.execute(() -> start(plan, origin));
        }
    }

    private void start(AttemptPlan plan, MetaData origin) {
        try (var ignored = mdc(plan, origin)) {
            Optional<ChannelConnection> found = directory.find(plan.workspaceId(), plan.channelId());
            if (found.isEmpty()) {
                log.warn("no attempt for {}: channel {} no longer exists", plan.publicationId(), plan.channelId());
                return;
            }
            ChannelConnection connection = found.get();
            if (plan.trigger() == AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND
                    && !connection.autoReattemptAfterNotFound()) {
                log.info("publication {} was not found after an unknown outcome; channel {} leaves the re-attempt"
                        + " to an operator", plan.publicationId(), plan.channelId());
                return;
            }
            Instant notBefore = throttle.notBefore(plan.workspaceId(), plan.channelId());
            Instant now = clock.instant();
            if (now.isBefore(notBefore)) {
                log.info("channel {} is rate limited until {}; attempt for {} waits", plan.channelId(), notBefore,
                        plan.publicationId());
                later(Duration.between(now, notBefore), plan, origin);
                return;
            }
            CompletableFuture<Boolean> mayWrite = plan.readBeforeCreate()
                    ? searchBeforeCreate(plan, connection, origin)
                    : CompletableFuture.completedFuture(true);
            mayWrite.thenComposeAsync(write -> write ? attempt(plan, connection, origin)
                            : CompletableFuture.completedFuture(null), executor)
                    .whenComplete((ok, failure) -> {
                        if (failure != null) {
                            logFailure(plan, origin, failure);
                        }
                    });
        } catch (RuntimeException e) {
            log.error("attempt for {} could not start", plan.publicationId(), e);
        }
    }

    /** Rule 3: where the channel can read back, a re-attempt after an unknown outcome looks first. */
    private CompletableFuture<Boolean> searchBeforeCreate(AttemptPlan plan, ChannelConnection connection,
                                                          MetaData origin) {
        ReadBackRequest request = new ReadBackRequest(plan.publicationId(), plan.lastAttemptNo(), plan.action(),
                plan.content(), plan.lastAttemptStartedAt(), connection);
        return adapters.forType(connection.type()).readBack(request).thenApplyAsync(outcome -> {
            try (var ignored = mdc(plan, origin)) {
                if (outcome instanceof ReadBackOutcome.Found found) {
                    log.info("read before re-attempt found {} for {}: nothing is written",
                            found.providerRef().id(), plan.publicationId());
                    send(new RecordReconciliationCommand(plan.publicationId(), plan.lastAttemptNo(),
                            ReconciliationResult.FOUND, found.providerRef(),
                            "found before re-attempting: " + found.evidence(), clock.instant()), origin);
                    return false;
                }
                if (outcome instanceof ReadBackOutcome.Unknown unknown) {
                    log.warn("read before re-attempt of {} inconclusive ({}); trying again in {}",
                            plan.publicationId(), unknown.reason(), READ_BEFORE_CREATE_RETRY);
                    later(READ_BEFORE_CREATE_RETRY, plan, origin);
                    return false;
                }
                // nothing there, or no way to look: the operator's (or the connection's) decision stands
                log.info("read before re-attempt of {}: {}", plan.publicationId(), outcome);
                return true;
            }
        }, executor);
    }

    private CompletableFuture<Void> attempt(AttemptPlan plan, ChannelConnection connection, MetaData origin) {
        StartAttemptCommand start = new StartAttemptCommand(plan.publicationId(), plan.trigger(), clock.instant(),
                properties.attemptTimeout());
        return commands.<Integer>send(GenericCommandMessage.asCommandMessage(start).andMetaData(origin))
                .thenCompose(attemptNo -> {
                    // the attempt is on record: now, and only now, the provider is called
                    try (var ignored = mdc(plan, origin)) {
                        MDC.put("attempt", String.valueOf(attemptNo));
                        log.info("attempt {} of {} started ({}), calling {}", attemptNo, plan.publicationId(),
                                plan.trigger(), connection.type().wireName());
                    }
                    Timer.Sample sample = Timer.start(meters);
                    return adapters.forType(connection.type())
                            .publish(new PublishRequest(plan.publicationId(), attemptNo, plan.action(), plan.content(),
                                    plan.scheduledAt(), connection))
                            .thenAcceptAsync(outcome -> {
                                sample.stop(meters.timer("herald.attempt.duration",
                                        "channel", connection.type().wireName(), "outcome", outcomeName(outcome)));
                                record(plan, connection, attemptNo, outcome, origin);
                            }, executor);
                });
    }

    private void record(AttemptPlan plan, ChannelConnection connection, int attemptNo, PublishOutcome outcome,
                        MetaData origin) {
        try (var ignored = mdc(plan, origin)) {
            MDC.put("attempt", String.valueOf(attemptNo));
            Instant now = clock.instant();
            var trace = outcome.trace();
            log.info("attempt {} of {} answered: {} (http {}, provider code {}, fingerprint {})", attemptNo,
                    plan.publicationId(), outcomeName(outcome), trace == null ? null : trace.httpStatus(),
                    trace == null ? null : trace.providerCode(), trace == null ? null : trace.requestFingerprint());
            meters.counter("herald.attempts", "channel", connection.type().wireName(), "outcome",
                    outcomeName(outcome)).increment();
            Object command;
            if (outcome instanceof PublishOutcome.Published published) {
                command = new RecordAttemptSucceededCommand(plan.publicationId(), attemptNo, published.providerRef(),
                        trace, now);
                if (published.reconcileCapabilityChange() != null) {
                    probes.readBackLost(plan.workspaceId(), plan.channelId(), published.reconcileCapabilityChange());
                }
            } else if (outcome instanceof PublishOutcome.Failed failed) {
                PublishingProperties.Retry policy = properties.retryFor(connection.type().wireName());
                int earlier = failed.kind() == FailureKind.NOT_SENT ? plan.notSentFailures()
                        : failed.kind() == FailureKind.RATE_LIMITED ? plan.rateLimitedFailures() : 0;
                Instant retryAt = RetryPolicy.retryAt(failed.kind(), earlier + 1, failed.retryAfter(), policy, now);
                if (failed.kind() == FailureKind.RATE_LIMITED) {
                    throttle.holdUntil(plan.workspaceId(), plan.channelId(),
                            retryAt != null ? retryAt : now.plus(nonNull(failed.retryAfter())));
                }
                command = new RecordAttemptFailedCommand(plan.publicationId(), attemptNo, failed.kind(),
                        failed.errorCode(), failed.detail(), trace, retryAt, now);
            } else if (outcome instanceof PublishOutcome.DuplicateRefused duplicate) {
                command = new RecordDuplicateSignalCommand(plan.publicationId(), attemptNo, duplicate.earlierPost(),
                        duplicate.detail(), trace, now);
            } else {
                PublishOutcome.OutcomeUnknown unknown = (PublishOutcome.OutcomeUnknown) outcome;
                command = new RecordAttemptOutcomeUnknownCommand(plan.publicationId(), attemptNo, unknown.cause(),
                        unknown.detail(), trace, now);
            }
            send(command, origin);
        }
    }

    private void send(Object command, MetaData origin) {
        commands.sendAndWait(GenericCommandMessage.asCommandMessage(command).andMetaData(origin));
    }

    private void later(Duration delay, AttemptPlan plan, MetaData origin) {
        executor.schedule(() -> start(plan, origin), Math.max(1, delay.toMillis()), TimeUnit.MILLISECONDS);
    }

    private void logFailure(AttemptPlan plan, MetaData origin, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        try (var ignored = mdc(plan, origin)) {
            if (cause instanceof HeraldRejection refused) {
                log.info("attempt for {} not started: {} ({})", plan.publicationId(), refused.code().code(),
                        refused.detail());
            } else {
                // the attempt's deadline settles whatever was left open
                log.error("attempt for {} failed unexpectedly", plan.publicationId(), cause);
            }
        }
    }

    private static String outcomeName(PublishOutcome outcome) {
        if (outcome instanceof PublishOutcome.Published) {
            return "succeeded";
        }
        if (outcome instanceof PublishOutcome.Failed failed) {
            return "failed_" + failed.kind().name().toLowerCase(java.util.Locale.ROOT);
        }
        return outcome instanceof PublishOutcome.DuplicateRefused ? "duplicate_refused" : "outcome_unknown";
    }

    private static Duration nonNull(Duration d) {
        return d != null ? d : Duration.ZERO;
    }

    private static MdcScope mdc(AttemptPlan plan, MetaData origin) {
        Map<String, String> values = new HashMap<>();
        values.put("publicationId", plan.publicationId().value());
        values.put("workspace", plan.workspaceId().value());
        values.put("channel", plan.channelId().value());
        Object correlationId = origin.get("correlationId");
        if (correlationId != null) {
            values.put("correlationId", correlationId.toString());
        }
        return new MdcScope(values);
    }

    /** Puts log context for the duration of a step and removes it afterwards. */
    private static final class MdcScope implements AutoCloseable {
        private final Map<String, String> previous;

        MdcScope(Map<String, String> values) {
            previous = MDC.getCopyOfContextMap();
            values.forEach(MDC::put);
        }

        @Override
        public void close() {
            if (previous == null) {
                MDC.clear();
            } else {
                MDC.setContextMap(previous);
            }
        }
    }
}
