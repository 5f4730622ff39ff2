package io.herald.deploy.axon;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import io.herald.command.publishing.PublishingProperties;
import io.herald.command.publishing.TimerSweep;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Connects the publishing core to its clock: db-scheduler runs the one recurring sweep of the timer
 * rows (on one node at a time; db-scheduler keeps no row per publication).
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
}
