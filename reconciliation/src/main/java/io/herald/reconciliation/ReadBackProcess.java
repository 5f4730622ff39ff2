package io.herald.reconciliation;

import io.herald.adapters.port.ReadBackOutcome;
import io.herald.command.channel.CapabilityProbes;
import io.herald.command.publishing.AttemptStarter;
import io.herald.command.publishing.PublicationTimers;
import io.herald.command.publishing.PublicationTimers.Timer;
import io.herald.command.publishing.ReadBackPath;
import io.herald.command.publishing.ResultRecorder;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.StartReadBackCommand;
import io.herald.platform.unitofwork.AfterCommit;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.messaging.MetaData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Reconciliation's read-back process, whole: after an unknown outcome the publication's timer row
 * comes here when due; the publication answers whether a read is still worth making (its licence);
 * the next read is scheduled before this one runs, so a crash cannot lose it; after commit the
 * provider is read ({@link ReadBackRunner}), the answer judged, and what it established goes to the
 * publication as a command. A read refused for the credentials is the connection's news too, as on
 * a write. The same read serves the read before a re-attempt.
 */
@Component
class ReadBackProcess implements ReadBackPath {

    private static final Logger log = LoggerFactory.getLogger(ReadBackProcess.class);

    private final ReadBackRunner runner;
    private final CommandGateway commands;
    private final PublicationTimers timers;
    private final ResultRecorder results;
    private final CapabilityProbes probes;

    ReadBackProcess(ReadBackRunner runner, CommandGateway commands, PublicationTimers timers, ResultRecorder results,
                    CapabilityProbes probes) {
        this.runner = runner;
        this.commands = commands;
        this.timers = timers;
        this.results = results;
        this.probes = probes;
    }

    @Override
    public Duration settleDelay() {
        return runner.settleDelay();
    }

    @Override
    public boolean fire(Timer timer) {
        ReadBackLicence licence = commands.sendAndWait(new StartReadBackCommand(timer.publicationId(),
                timer.attemptNo()));
        if (licence == null) {
            return false;
        }
        int readNo = timer.readNo();
        runner.delayAfterRead(readNo).ifPresentOrElse(
                next -> timers.rescheduleClaimed(timer, readNo + 1, next),
                () -> timers.clearClaimed(timer));
        MetaData origin = AttemptStarter.origin();
        AfterCommit.run("read-back of " + timer.publicationId(), () -> read(licence)
                .thenAccept(outcome -> runner.toRecord(licence, readNo, outcome)
                        .ifPresent(command -> results.record(command, origin)))
                .exceptionally(failure -> {
                    log.error("read-back {} of {} broke; the next read is scheduled", readNo,
                            licence.publicationId(), failure);
                    return null;
                }));
        return true;
    }

    @Override
    public CompletableFuture<ReadBackOutcome> read(ReadBackLicence licence) {
        return runner.read(licence).thenApply(outcome -> {
            if (outcome instanceof ReadBackOutcome.AuthLost lost) {
                // connection health: credentials refused on a read are the connection's, as on a write
                probes.authLost(licence.workspaceId(), licence.channelId(), lost.providerCode(), lost.reason());
            }
            return outcome;
        });
    }
}
