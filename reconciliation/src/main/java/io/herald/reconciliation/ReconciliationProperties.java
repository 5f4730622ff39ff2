package io.herald.reconciliation;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code herald.reconciliation.*}: the first read waits {@code settle-delay} (a post can appear
 * seconds after a timed-out request); while reads are inconclusive they repeat after each delay of
 * {@code retry-schedule}, then the operator decides.
 */
@ConfigurationProperties("herald.reconciliation")
public record ReconciliationProperties(Duration settleDelay, List<Duration> retrySchedule) {

    public ReconciliationProperties {
        settleDelay = settleDelay != null ? settleDelay : Duration.ofSeconds(30);
        retrySchedule = retrySchedule != null ? List.copyOf(retrySchedule)
                : List.of(Duration.ofMinutes(2), Duration.ofMinutes(10), Duration.ofHours(1));
    }
}
