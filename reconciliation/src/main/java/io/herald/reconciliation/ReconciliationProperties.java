package io.herald.reconciliation;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.reconciliation.*}: the first read waits {@code settle-delay} (a post can appear
 * seconds after a timed-out request); while reads are inconclusive they repeat after each delay of
 * {@code retry-schedule}, then the operator decides.
 */
@ConfigurationProperties("herald.reconciliation")
@Validated
public record ReconciliationProperties(@DefaultValue("30s") @NotNull Duration settleDelay,
                                       @DefaultValue("2m,10m,1h") @NotNull List<Duration> retrySchedule) {

    public ReconciliationProperties {
        retrySchedule = List.copyOf(retrySchedule);
    }
}
