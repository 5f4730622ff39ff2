package io.herald.reconciliation;

import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ChannelDirectory;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Component;

/**
 * Reads back at the provider what a publication's attempt may have left, and says what that
 * establishes: the matching verdict, and the schedule of reads (settle delay, retries while
 * inconclusive). Reads are safe to repeat. A connection that cannot read back says so once, on the
 * first read, and the case waits for an operator. {@link ReadBackProcess} drives it.
 */
@Component
@EnableConfigurationProperties(ReconciliationProperties.class)
class ReadBackRunner {

    private static final Logger log = LoggerFactory.getLogger(ReadBackRunner.class);

    private final ChannelDirectory directory;
    private final ChannelPlugins adapters;
    private final ReconciliationProperties properties;
    private final Clock clock;
    private final MeterRegistry meters;

    ReadBackRunner(ChannelDirectory directory, ChannelPlugins adapters, ReconciliationProperties properties,
                          Clock clock, MeterRegistry meters) {
        this.directory = directory;
        this.adapters = adapters;
        this.properties = properties;
        this.clock = clock;
        this.meters = meters;
    }

    Duration settleDelay() {
        return properties.settleDelay();
    }

    /** The wait after read {@code readNo} (1 = the first) stays inconclusive; empty: the operator decides. */
    Optional<Duration> delayAfterRead(int readNo) {
        List<Duration> schedule = properties.retrySchedule();
        return readNo >= 1 && readNo <= schedule.size() ? Optional.of(schedule.get(readNo - 1)) : Optional.empty();
    }

    /** Never fails: a read that breaks is an inconclusive one. */
    CompletableFuture<ReadBackOutcome> read(ReadBackLicence licence) {
        try {
            Optional<ChannelConnection> connection = directory.find(licence.workspaceId(), licence.channelId());
            if (connection.isEmpty()) {
                return CompletableFuture.completedFuture(new ReadBackOutcome.Unavailable(
                        "channel " + licence.channelId() + " no longer exists"));
            }
            return readAt(licence, connection.get())
                    .exceptionally(failure -> {
                        log.error("read-back of attempt {} of {} failed unexpectedly", licence.attemptNo(),
                                licence.publicationId(), failure);
                        return new ReadBackOutcome.Unknown("the read failed: " + failure);
                    })
                    .thenApply(outcome -> {
                        meters.counter("herald.read_backs", "result",
                                outcome.getClass().getSimpleName().toLowerCase()).increment();
                        return outcome;
                    });
        } catch (RuntimeException e) {
            log.error("read-back of attempt {} of {} could not start", licence.attemptNo(), licence.publicationId(), e);
            return CompletableFuture.completedFuture(new ReadBackOutcome.Unknown("the read could not start: " + e));
        }
    }

    /** A create looks for the post it may have left; an update or delete reads the post it acts on. */
    private CompletableFuture<ReadBackOutcome> readAt(ReadBackLicence licence, ChannelConnection connection) {
        if (licence.action().actsOnPost() && licence.target() != null) {
            return adapters.forType(connection.type())
                    .readPost(new PostReadRequest(licence.target(), licence.content(), connection))
                    .thenApply(reading -> PostChangeReadBack.judge(licence, reading));
        }
        return adapters.forType(connection.type()).readBack(new ReadBackRequest(licence.publicationId(),
                licence.attemptNo(), licence.action(), licence.content(), licence.attemptStartedAt(), connection,
                licence.step(), licence.postRef(), licence.requestedAt(), licence.scheduledAt(), licence.prepared()));
    }

    /** What read {@code readNo} of a reconciliation established; empty when it adds nothing. */
    Optional<RecordReconciliationCommand> toRecord(ReadBackLicence licence, int readNo,
                                                           ReadBackOutcome outcome) {
        if (outcome instanceof ReadBackOutcome.Found found) {
            return record(licence, readNo, ReconciliationResult.FOUND, found.providerRef(), found.evidence());
        }
        if (outcome instanceof ReadBackOutcome.NotFound notFound) {
            return record(licence, readNo, ReconciliationResult.NOT_FOUND, null, notFound.detail());
        }
        if (outcome instanceof ReadBackOutcome.Unknown unknown) {
            return record(licence, readNo, ReconciliationResult.UNKNOWN, null,
                    "read-back inconclusive: " + unknown.reason());
        }
        ReadBackOutcome.Unavailable unavailable = outcome instanceof ReadBackOutcome.AuthLost lost
                ? new ReadBackOutcome.Unavailable(lost.reason()) : (ReadBackOutcome.Unavailable) outcome;
        if (readNo == 1) {
            return record(licence, readNo, ReconciliationResult.UNKNOWN, null,
                    "read-back unavailable: " + unavailable.reason());
        }
        log.info("read-back {} of {} still unavailable: {}", readNo, licence.publicationId(), unavailable.reason());
        return Optional.empty();
    }

    private Optional<RecordReconciliationCommand> record(ReadBackLicence licence, int readNo,
                                                          ReconciliationResult result, ProviderRef ref, String detail) {
        log.info("read-back {} of attempt {} of {}: {} ({})", readNo, licence.attemptNo(), licence.publicationId(),
                result, detail);
        return Optional.of(new RecordReconciliationCommand(licence.publicationId(), licence.attemptNo(), result, ref,
                detail, clock.instant()));
    }
}
