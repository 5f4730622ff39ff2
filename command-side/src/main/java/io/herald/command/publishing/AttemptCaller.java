package io.herald.command.publishing;

import io.herald.platform.logging.MdcScope;
import io.herald.platform.tracing.Traces;

import io.herald.platform.threads.BackgroundThreads;

import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ChannelDirectory;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.command.channel.ApiVersionHealth;
import io.herald.command.channel.CapabilityProbes;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.RecordAttemptAuthLostCommand;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.RecordAttemptFailedCommand;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.RecordAttemptVersionRetiredCommand;
import io.herald.contracts.publication.RecordDuplicateSignalCommand;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.tracing.Span;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.messaging.MetaData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Component;

/**
 * The provider calls of attempts already on record, and the reads before a re-attempt. Whoever
 * holds a started {@link AttemptDecision} calls here, after the commit of the attempt; nothing
 * here decides: answers go to the {@link ResultRecorder} as commands, and the publication decides.
 * If this node dies anywhere in between, the attempt's expiry row turns it into an unknown outcome.
 */
@Component
@EnableConfigurationProperties(VerificationProperties.class)
public class AttemptCaller {

    private static final Logger log = LoggerFactory.getLogger(AttemptCaller.class);

    private final ChannelDirectory directory;
    private final ChannelPlugins adapters;
    private final ReadBackPath readBacks;
    private final ResultRecorder results;
    private final CapabilityProbes probes;
    private final ApiVersionHealth versions;
    private final ConnectionThrottle throttle;
    private final Clock clock;
    private final MeterRegistry meters;
    private final StepCaller steps;
    private final Traces traces;
    private final VerificationProperties verification;
    /** Hands work off the committing thread; short work only, the provider calls themselves are asynchronous. */
    private final ExecutorService executor = Executors.newFixedThreadPool(4, BackgroundThreads.named("herald-attempts"));
    /** Provider calls handed to the executor and not yet answered: what a graceful stop waits for. */
    private final AtomicInteger inFlight = new AtomicInteger();

    public AttemptCaller(ChannelDirectory directory, ChannelPlugins adapters, ReadBackPath readBacks,
                        ResultRecorder results, CapabilityProbes probes, ConnectionThrottle throttle, Clock clock,
                        MeterRegistry meters, StepCaller steps, Traces traces, ApiVersionHealth versions,
                        VerificationProperties verification) {
        this.verification = verification;
        this.versions = versions;
        this.steps = steps;
        this.traces = traces;
        this.throttle = throttle;
        this.directory = directory;
        this.adapters = adapters;
        this.readBacks = readBacks;
        this.results = results;
        this.probes = probes;
        this.clock = clock;
        this.meters = meters;
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }

    /**
     * Calls the provider for a started attempt; its answer is recorded in a batch with others. A
     * call still waiting at the attempt's deadline is never made: by then the attempt is (or is
     * about to be) an unknown outcome, a read-back may find nothing and a re-attempt may be under
     * way, so a late call could create a second post.
     */
    public void call(AttemptDecision attempt, Instant deadline, MetaData origin) {
        inFlight.incrementAndGet();
        try {
            executor.execute(() -> place(attempt, deadline, origin));
        } catch (RejectedExecutionException stopped) {
            // shutting down: the attempt's expiry row turns it into an unknown outcome, as after a crash
            inFlight.decrementAndGet();
        }
    }

    /** Provider calls started and not yet answered (or given up): what a graceful stop waits for. */
    public int inFlight() {
        return inFlight.get();
    }

    /**
     * The call is a client span of the trace that requested the publication (the {@code traceparent}
     * its events carry), so the attempt's log lines and the provider call join the request's trace.
     */
    private void place(AttemptDecision attempt, Instant deadline, MetaData origin) {
        boolean handedOn = false;
        Span span = traces.startClient("herald attempt", traceparent(origin))
                .tag("herald.publication", attempt.publicationId().value())
                .tag("herald.attempt", String.valueOf(attempt.attemptNo()));
        try {
            try (var inSpan = traces.inScope(span); var ignored = mdc(attempt, origin)) {
                if (!clock.instant().isBefore(deadline)) {
                    log.warn("attempt {} of {} was not called: its deadline {} passed while it waited; it becomes an"
                            + " unknown outcome and is read back", attempt.attemptNo(), attempt.publicationId(),
                            deadline);
                    return;
                }
                Optional<ChannelConnection> found = directory.find(attempt.workspaceId(), attempt.channelId());
                if (found.isEmpty()) {
                    // nothing was sent: a failure that provably did not execute, and final
                    results.record(new RecordAttemptFailedCommand(attempt.publicationId(), attempt.attemptNo(),
                            FailureKind.REJECTED, "unknown_channel", "channel " + attempt.channelId()
                            + " no longer exists; nothing was sent", AttemptTrace.nothingCameBack(null, null), null,
                            clock.instant()), origin);
                    return;
                }
                ChannelConnection connection = found.get();
                span.tag("herald.channel", connection.type().wireName());
                log.info("attempt {} of {} started ({}), calling {} for {}", attempt.attemptNo(),
                        attempt.publicationId(), attempt.trigger(), connection.type().wireName(),
                        attempt.stepOrPost().wireName());
                Timer.Sample sample = Timer.start(meters);
                steps.send(adapters.forType(connection.type()), attempt, connection)
                        .thenAcceptAsync(outcome -> {
                            sample.stop(meters.timer("herald.attempt.duration",
                                    "channel", connection.type().wireName(), "outcome", outcomeName(outcome)));
                            try (var answerInSpan = traces.inScope(span)) {
                                answered(attempt, connection, outcome, origin);
                            }
                        }, executor)
                        .exceptionally(failure -> {
                            // the expiry row turns the attempt into an unknown outcome: never a blind retry
                            span.error(failure);
                            log.error("attempt {} of {} broke before its answer was recorded", attempt.attemptNo(),
                                    attempt.publicationId(), failure);
                            return null;
                        })
                        .whenComplete((done, failure) -> {
                            span.end();
                            inFlight.decrementAndGet();
                        });
                handedOn = true;
            } catch (RuntimeException e) {
                span.error(e);
                log.error("attempt {} of {} could not be called", attempt.attemptNo(), attempt.publicationId(), e);
            }
        } finally {
            if (!handedOn) {
                span.end();
                inFlight.decrementAndGet();
            }
        }
    }

    private static String traceparent(MetaData origin) {
        Object traceparent = origin.get(Traces.TRACEPARENT);
        return traceparent == null ? null : traceparent.toString();
    }

    /** A create for publish and draft; an edit or delete of the entry's post for update and delete. */
    /**
     * Rule 3: where the channel can read back, a re-attempt after an unknown outcome looks first.
     * Completes with whether to write: a post found is recorded and nothing is written; an
     * inconclusive read writes nothing either, and the attempt's timer row asks again later.
     */
    public CompletableFuture<Boolean> readFirst(AttemptDecision attempt, MetaData origin) {
        return readBacks.read(attempt.readFirst()).thenApplyAsync(outcome -> {
            try (var ignored = mdc(attempt, origin)) {
                if (outcome instanceof ReadBackOutcome.Found found) {
                    log.info("read before re-attempt found {} for {}: nothing is written",
                            found.providerRef().id(), attempt.publicationId());
                    results.record(new RecordReconciliationCommand(attempt.publicationId(),
                            attempt.readFirst().attemptNo(), ReconciliationResult.FOUND, found.providerRef(),
                            "found before re-attempting: " + found.evidence(), clock.instant()), origin);
                    return false;
                }
                if (outcome instanceof ReadBackOutcome.Unknown unknown) {
                    log.warn("read before re-attempt of {} inconclusive ({}); asking again in {}",
                            attempt.publicationId(), unknown.reason(), AttemptStarter.READ_FIRST_LEASE);
                    return false;
                }
                // nothing there, or no way to look: the operator's (or the connection's) decision stands
                log.info("read before re-attempt of {}: {}", attempt.publicationId(), outcome);
                return true;
            }
        }, executor);
    }

    private void answered(AttemptDecision attempt, ChannelConnection connection, PublishOutcome outcome,
                          MetaData origin) {
        try (var ignored = mdc(attempt, origin)) {
            Instant now = clock.instant();
            var trace = outcome.trace();
            log.info("attempt {} of {} answered: {} (http {}, provider code {}, fingerprint {})", attempt.attemptNo(),
                    attempt.publicationId(), outcomeName(outcome), trace == null ? null : trace.httpStatus(),
                    trace == null ? null : trace.providerCode(), trace == null ? null : trace.requestFingerprint());
            meters.counter("herald.attempts", "channel", connection.type().wireName(), "outcome",
                    outcomeName(outcome)).increment();
            Object command;
            if (outcome instanceof PublishOutcome.Published published) {
                // the connection's choice as it stands now: the publication decides whether anything is left to verify
                command = new RecordAttemptSucceededCommand(attempt.publicationId(), attempt.attemptNo(),
                        published.providerRef(), trace, now,
                        connection.verifyAfterSuccess() ? verification.delay() : null, published.note());
                if (published.reconcileCapabilityChange() != null) {
                    probes.readBackLost(attempt.workspaceId(), attempt.channelId(),
                            published.reconcileCapabilityChange());
                }
            } else if (outcome instanceof PublishOutcome.Failed failed) {
                command = new RecordAttemptFailedCommand(attempt.publicationId(), attempt.attemptNo(), failed.kind(),
                        failed.errorCode(), failed.detail(), trace, failed.retryAfter(), now);
            } else if (outcome instanceof PublishOutcome.AuthLost lost) {
                // the connection first: publications due from now on are held before any call
                probes.authLost(attempt.workspaceId(), attempt.channelId(), lost.providerCode(), lost.reason());
                command = new RecordAttemptAuthLostCommand(attempt.publicationId(), attempt.attemptNo(),
                        lost.providerCode(), lost.reason(), trace, now);
            } else if (outcome instanceof PublishOutcome.VersionRetired retired) {
                // the connection first: publications due from now on are held before any call
                versions.retired(attempt.workspaceId(), attempt.channelId(), retired.version(),
                        retired.providerCode(), retired.reason());
                command = new RecordAttemptVersionRetiredCommand(attempt.publicationId(), attempt.attemptNo(),
                        retired.providerCode(), retired.reason(), trace, now);
            } else if (outcome instanceof PublishOutcome.DuplicateRefused duplicate) {
                command = new RecordDuplicateSignalCommand(attempt.publicationId(), attempt.attemptNo(),
                        duplicate.earlierPost(), duplicate.detail(), trace, now);
            } else {
                PublishOutcome.OutcomeUnknown unknown = (PublishOutcome.OutcomeUnknown) outcome;
                command = new RecordAttemptOutcomeUnknownCommand(attempt.publicationId(), attempt.attemptNo(),
                        unknown.cause(), unknown.detail(), trace, now);
            }
            if (outcome instanceof PublishOutcome.Failed failed && failed.kind() == FailureKind.RATE_LIMITED) {
                // the limit is the connection's: no attempt on it starts before the publication's retry time
                results.record(command, origin, retryAt -> throttle.holdUntil(attempt.workspaceId(),
                        attempt.channelId(), retryAt instanceof Instant at ? at
                                : now.plus(failed.retryAfter() != null ? failed.retryAfter() : Duration.ZERO),
                        now));
            } else {
                results.record(command, origin);
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
        if (outcome instanceof PublishOutcome.AuthLost) {
            return "auth_lost";
        }
        if (outcome instanceof PublishOutcome.VersionRetired) {
            return "version_retired";
        }
        return outcome instanceof PublishOutcome.DuplicateRefused ? "duplicate_refused" : "outcome_unknown";
    }

    private static MdcScope mdc(AttemptDecision attempt, MetaData origin) {
        Map<String, String> values = new HashMap<>();
        values.put(MdcScope.PUBLICATION_ID, attempt.publicationId().value());
        values.put("workspace", attempt.workspaceId().value());
        values.put("channel", attempt.channelId().value());
        values.put("attempt", String.valueOf(attempt.attemptNo()));
        Object correlationId = origin.get(MdcScope.CORRELATION_ID);
        if (correlationId != null) {
            values.put(MdcScope.CORRELATION_ID, correlationId.toString());
        }
        return new MdcScope(values);
    }
}
