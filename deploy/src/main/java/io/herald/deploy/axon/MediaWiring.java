package io.herald.deploy.axon;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import io.herald.command.media.MediaRetention;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Media's recurring work: the retention sweep, on one node at a time. */
@Configuration(proxyBeanMethods = false)
public class MediaWiring {

    static final String RETENTION_SWEEP_TASK = "media-retention-sweep";

    @Bean
    RecurringTask<Void> mediaRetentionSweep(MediaRetention retention) {
        return Tasks.recurring(RETENTION_SWEEP_TASK, FixedDelay.of(retention.properties().retentionSweepInterval()))
                .execute((instance, context) -> retention.sweep());
    }
}
