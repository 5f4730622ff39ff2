package io.herald.command.publishing;

import io.herald.command.publishing.PublicationTimers.Timer;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.ExpireAttemptCommand;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Fires the timer rows that are due, on whichever node runs the recurring sweep task: claims a
 * bounded batch, sends each row's command as a nested command of one unit of work, and lets the
 * publication decide. A row that fires twice or late finds its work moot and changes nothing;
 * such a row is deleted. Work that needs the provider (an attempt, a read-back) runs after commit;
 * a read-back row is reconciliation's to fire ({@link ReadBackPath}), and so is a verification
 * after success ({@link VerificationPath}).
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
    private final VerificationPath verifications;
    private final GroupCommit groupCommit;
    private final PublishingProperties properties;
    private final MeterRegistry meters;

    public TimerSweep(PublicationTimers timers, CommandGateway commands, AttemptStarter starts, ReadBackPath readBacks,
                      VerificationPath verifications, GroupCommit groupCommit, PublishingProperties properties,
                      MeterRegistry meters) {
        this.verifications = verifications;
        this.timers = timers;
        this.commands = commands;
        this.starts = starts;
        this.readBacks = readBacks;
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
            case READ_BACK_DUE -> readBacks.fire(timer);
            case VERIFY_DUE -> verifications.fire(timer);
        };
        if (!effect) {
            timers.clearClaimed(timer);
        }
        meters.counter("herald.timers.fired", "kind", timer.kind().name().toLowerCase(),
                "effect", String.valueOf(effect)).increment();
    }
}
