package io.herald.reconciliation;

import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ChannelDirectory;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.command.entry.EntryLines;
import io.herald.command.publishing.AttemptStarter;
import io.herald.command.publishing.PublicationTimers;
import io.herald.command.publishing.PublicationTimers.Timer;
import io.herald.command.publishing.ResultRecorder;
import io.herald.command.publishing.VerificationPath;
import io.herald.command.publishing.VerificationProperties;
import io.herald.contracts.publication.RecordVerificationCommand;
import io.herald.contracts.publication.StartVerificationCommand;
import io.herald.contracts.publication.VerificationLicence;
import io.herald.platform.unitofwork.AfterCommit;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.messaging.MetaData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The verification after success, whole: the publication's {@code VERIFY_DUE} row comes here when
 * due; the publication answers whether the read is still worth making (its licence), and the
 * connection whether it still verifies; the next read is scheduled before this one runs, so a crash
 * cannot lose it; after commit the post is read by its reference (the read of an update's read-back),
 * and what that established goes to the publication as a command. Still there or gone settles it; an
 * inconclusive read is read again {@code herald.verification.delay} later, up to
 * {@code herald.verification.max-tries} reads, then Herald gives up (a log line): the publication
 * stays as it is; credentials that cannot read the post give up at once. Nothing is ever written at
 * the provider.
 */
@Component
class VerificationProcess implements VerificationPath {

    private static final Logger log = LoggerFactory.getLogger(VerificationProcess.class);

    private final CommandGateway commands;
    private final PublicationTimers timers;
    private final ResultRecorder results;
    private final ChannelDirectory directory;
    private final ChannelPlugins adapters;
    private final EntryLines entries;
    private final VerificationProperties properties;
    private final Clock clock;
    private final MeterRegistry meters;

    VerificationProcess(CommandGateway commands, PublicationTimers timers, ResultRecorder results,
                        ChannelDirectory directory, ChannelPlugins adapters, EntryLines entries,
                        VerificationProperties properties, Clock clock, MeterRegistry meters) {
        this.commands = commands;
        this.timers = timers;
        this.results = results;
        this.directory = directory;
        this.adapters = adapters;
        this.entries = entries;
        this.properties = properties;
        this.clock = clock;
        this.meters = meters;
    }

    @Override
    public boolean fire(Timer timer) {
        VerificationLicence licence = commands.sendAndWait(new StartVerificationCommand(timer.publicationId(),
                timer.attemptNo()));
        if (licence == null) {
            return false;
        }
        Optional<ChannelConnection> connection = directory.find(licence.workspaceId(), licence.channelId());
        if (connection.isEmpty() || !connection.get().verifyAfterSuccess()) {
            log.info("no verification of {}: its connection {} no longer verifies after success",
                    licence.publicationId(), licence.channelId());
            return false;
        }
        if (entries.deleteFollows(licence.publicationId())) {
            log.info("no verification of {}: a delete of its entry's post was accepted since",
                    licence.publicationId());
            return false;
        }
        int readNo = timer.readNo();
        if (readNo < properties.maxTries()) {
            timers.rescheduleClaimed(timer, readNo + 1, properties.delay());
        } else {
            timers.clearClaimed(timer);
        }
        MetaData origin = AttemptStarter.origin();
        AfterCommit.run("verification of " + timer.publicationId(), () -> read(licence, connection.get())
                .thenAccept(reading -> toRecord(licence, readNo, reading)
                        .ifPresent(command -> results.record(command, origin)))
                .exceptionally(failure -> {
                    log.error("verification read {} of {} broke; the next read is scheduled", readNo,
                            licence.publicationId(), failure);
                    return null;
                }));
        return true;
    }

    /** Never fails: a read that breaks is an inconclusive one. */
    private CompletableFuture<PostReading> read(VerificationLicence licence, ChannelConnection connection) {
        try {
            return adapters.forType(connection.type())
                    .readPost(new PostReadRequest(licence.post(), licence.content(), connection))
                    .exceptionally(failure -> new PostReading.Unknown("the read failed: " + failure))
                    .thenApply(reading -> {
                        meters.counter("herald.verifications", "result",
                                reading.getClass().getSimpleName().toLowerCase(Locale.ROOT)).increment();
                        return reading;
                    });
        } catch (RuntimeException e) {
            log.error("verification of {} could not start", licence.publicationId(), e);
            return CompletableFuture.completedFuture(new PostReading.Unknown("the read could not start: " + e));
        }
    }

    /** What read {@code readNo} established; empty when it was inconclusive (read again, or given up). */
    Optional<RecordVerificationCommand> toRecord(VerificationLicence licence, int readNo, PostReading reading) {
        if (reading instanceof PostReading.Present present) {
            log.info("verification of {}: the post {} is still there ({})", licence.publicationId(),
                    licence.post().id(), present.detail());
            return Optional.of(new RecordVerificationCommand(licence.publicationId(), licence.attemptNo(), true,
                    licence.post(), present.detail(), clock.instant()));
        }
        if (reading instanceof PostReading.Gone gone) {
            log.warn("verification of {}: the post {} is gone ({})", licence.publicationId(), licence.post().id(),
                    gone.detail());
            return Optional.of(new RecordVerificationCommand(licence.publicationId(), licence.attemptNo(), false,
                    licence.post(), gone.detail(), clock.instant()));
        }
        if (reading instanceof PostReading.Unavailable unavailable) {
            // the credentials cannot read posts: reading again would answer the same
            log.warn("verification of {} gives up: the channel cannot read the post ({}); the publication stays as"
                    + " it is", licence.publicationId(), unavailable.reason());
            timers.clearVerification(licence.publicationId());
            meters.counter("herald.verifications.given_up").increment();
            return Optional.empty();
        }
        String reason = ((PostReading.Unknown) reading).reason();
        if (readNo < properties.maxTries()) {
            log.info("verification read {} of {} inconclusive ({}); reading again in {}", readNo,
                    licence.publicationId(), reason, properties.delay());
        } else {
            log.warn("verification of {} gives up after {} inconclusive reads ({}); the publication stays as it is",
                    licence.publicationId(), readNo, reason);
            meters.counter("herald.verifications.given_up").increment();
        }
        return Optional.empty();
    }
}
