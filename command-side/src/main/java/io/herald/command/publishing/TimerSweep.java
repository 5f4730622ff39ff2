package io.herald.command.publishing;

import io.herald.platform.unitofwork.AfterCommit;
import io.herald.command.publishing.PublicationTimers.Timer;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.ExpireAttemptCommand;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.StartReadBackCommand;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.messaging.MetaData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Fires the timer rows that are due, on whichever node runs the recurring sweep task: claims a
 * bounded batch, sends each row's command as a nested command of one unit of work, and lets the
 * publication decide. A row that fires twice or late finds its work moot and changes nothing;
 * such a row is deleted. Work that needs the provider (an attempt, a read-back) runs after commit.
 */
@Component
public class TimerSweep {

    private static final Logger log = LoggerFactory.getLogger(TimerSweep.class);
    /** Batches per sweep at most, so one sweep ends while rows keep arriving. */
    private static final int MAX_BATCHES = 10;

    private final PublicationTimers timers;
    private final CommandGateway commands;
    private final AttemptStarter starts;
    private final ReadBackPath readBacks;
    private final ResultRecorder results;
    private final GroupCommit groupCommit;
    private final PublishingProperties properties;
    private final MeterRegistry meters;

    public TimerSweep(PublicationTimers timers, CommandGateway commands, AttemptStarter starts, ReadBackPath readBacks,
                      ResultRecorder results, GroupCommit groupCommit, PublishingProperties properties,
                      MeterRegistry meters) {
        this.timers = timers;
        this.commands = commands;
        this.starts = starts;
        this.readBacks = readBacks;
        this.results = results;
        this.groupCommit = groupCommit;
        this.properties = properties;
        this.meters = meters;
    }

    /** @return how many rows were fired */
    public int sweepDue() {
        int fired = 0;
        for (int i = 0; i < MAX_BATCHES; i++) {
            List<Timer> due = timers.claimDue(properties.sweepBatchSize());
            List<Timer> failed = groupCommit.inOneTransaction(due, timer -> timer.publicationId().value(), this::fire);
            failed.forEach(t -> log.warn("timer {} of {} could not fire; it fires again in {}", t.kind(),
                    t.publicationId(), PublicationTimers.CLAIM_LEASE));
            fired += due.size();
            if (due.size() < properties.sweepBatchSize()) {
                break;
            }
        }
        return fired;
    }

    void fire(Timer timer) {
        boolean effect = switch (timer.kind()) {
            case ATTEMPT_EXPIRY -> commands.<Boolean>sendAndWait(
                    new ExpireAttemptCommand(timer.publicationId(), timer.attemptNo()));
            case ATTEMPT_DUE -> {
                AttemptTrigger trigger = timer.trigger() != null ? timer.trigger() : AttemptTrigger.RETRY;
                AttemptDecision decision = starts.start(timer.publicationId(), timer.attemptNo(), trigger, false);
                boolean started = decision.verdict() != AttemptDecision.Verdict.REFUSED;
                if (!started && trigger == AttemptTrigger.RESEND_SAME_KEY) {
                    // too late for the same key (or moot): the unknown attempt is read back, as without the re-send
                    timers.rescheduleClaimedAsReadBack(timer, timer.attemptNo() - 1);
                    yield true;
                }
                yield started;
            }
            case READ_BACK_DUE -> readBack(timer);
        };
        if (!effect) {
            timers.clearClaimed(timer);
        }
        meters.counter("herald.timers.fired", "kind", timer.kind().name().toLowerCase(),
                "effect", String.valueOf(effect)).increment();
    }

    /** The next read is scheduled before this one runs, so a crash cannot lose it; a settled read deletes it. */
    private boolean readBack(Timer timer) {
        ReadBackLicence licence = commands.sendAndWait(new StartReadBackCommand(timer.publicationId(),
                timer.attemptNo()));
        if (licence == null) {
            return false;
        }
        int readNo = timer.readNo();
        readBacks.delayAfterRead(readNo).ifPresentOrElse(
                next -> timers.rescheduleClaimed(timer, readNo + 1, next),
                () -> timers.clearClaimed(timer));
        MetaData origin = AttemptStarter.origin();
        AfterCommit.run("read-back of " + timer.publicationId(), () -> readBacks.read(licence)
                .thenAccept(outcome -> readBacks.toRecord(licence, readNo, outcome)
                        .ifPresent(command -> results.record(command, origin)))
                .exceptionally(failure -> {
                    log.error("read-back {} of {} broke; the next read is scheduled", readNo,
                            licence.publicationId(), failure);
                    return null;
                }));
        return true;
    }
}
