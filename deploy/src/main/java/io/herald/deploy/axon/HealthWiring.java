package io.herald.deploy.axon;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import io.herald.command.channel.ApiVersionHealth;
import io.herald.command.channel.TokenRefresher;
import io.herald.command.health.TokenExpiryWarnings;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Connection health's recurring work: the sweeps of token expiries and API version sunsets, and the
 * refresh of tokens about to expire, on one node at a time.
 */
@Configuration(proxyBeanMethods = false)
public class HealthWiring {

    static final String EXPIRY_SWEEP_TASK = "token-expiry-sweep";
    static final String VERSION_SWEEP_TASK = "api-version-sweep";
    static final String TOKEN_REFRESH_TASK = "token-refresh-sweep";

    @Bean
    RecurringTask<Void> tokenExpirySweep(TokenExpiryWarnings warnings) {
        return Tasks.recurring(EXPIRY_SWEEP_TASK, FixedDelay.of(warnings.properties().expirySweepInterval()))
                .execute((instance, context) -> warnings.sweep());
    }

    @Bean
    RecurringTask<Void> apiVersionSweep(ApiVersionHealth versions, TokenExpiryWarnings warnings) {
        return Tasks.recurring(VERSION_SWEEP_TASK, FixedDelay.of(warnings.properties().expirySweepInterval()))
                .execute((instance, context) -> versions.sweep());
    }

    @Bean
    RecurringTask<Void> tokenRefreshSweep(TokenRefresher refresher) {
        return Tasks.recurring(TOKEN_REFRESH_TASK, FixedDelay.of(refresher.properties().tokenRefreshInterval()))
                .execute((instance, context) -> refresher.sweep());
    }
}
