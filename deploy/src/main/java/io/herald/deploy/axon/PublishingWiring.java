package io.herald.deploy.axon;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.command.channel.CapabilityProbes;
import io.herald.command.publishing.PublishingProperties;
import io.herald.command.publishing.ReadBackPath;
import io.herald.command.publishing.TimerSweep;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.herald.reconciliation.ReadBackRunner;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Connects the publishing core to its clock and to reconciliation: db-scheduler runs the one
 * recurring sweep of the timer rows (on one node at a time; db-scheduler keeps no row per
 * publication), and the command side reads back through reconciliation's runner, which the module
 * arrows keep it from seeing directly.
 */
@Configuration(proxyBeanMethods = false)
public class PublishingWiring {

    static final String SWEEP_TASK = "publication-timer-sweep";

    /** Every {@code herald.publishing.sweep-interval}, on one node at a time. */
    @Bean
    RecurringTask<Void> publicationTimerSweep(TimerSweep sweep, PublishingProperties properties) {
        return Tasks.recurring(SWEEP_TASK, FixedDelay.of(properties.sweepInterval()))
                .execute((instance, context) -> sweep.sweepDue());
    }

    @Bean
    ReadBackPath readBacks(ReadBackRunner runner, CapabilityProbes probes) {
        return new ReadBackPath() {
            @Override
            public Duration settleDelay() {
                return runner.settleDelay();
            }

            @Override
            public Optional<Duration> delayAfterRead(int readNo) {
                return runner.delayAfterRead(readNo);
            }

            @Override
            public CompletableFuture<ReadBackOutcome> read(ReadBackLicence licence) {
                return runner.read(licence).thenApply(outcome -> {
                    if (outcome instanceof ReadBackOutcome.AuthLost lost) {
                        // connection health: credentials refused on a read are the connection's, as on a write
                        probes.authLost(licence.workspaceId(), licence.channelId(), lost.providerCode(),
                                lost.reason());
                    }
                    return outcome;
                });
            }

            @Override
            public Optional<RecordReconciliationCommand> toRecord(ReadBackLicence licence, int readNo,
                                                                  ReadBackOutcome outcome) {
                return runner.toRecord(licence, readNo, outcome);
            }
        };
    }
}
