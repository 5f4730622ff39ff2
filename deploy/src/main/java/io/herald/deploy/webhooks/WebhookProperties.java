package io.herald.deploy.webhooks;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.webhooks.*}: how deliveries are sent.
 *
 * @param retrySchedule  the delay after each failed try (docs/api.md#webhooks: 5 s, 5 min, 30 min, 2 h, 5 h,
 *                       10 h, 10 h), each with up to ±{@code jitter}; a delivery whose tries outlast
 *                       it is FAILED. Tests shorten it
 * @param jitter         the largest share (0 to 0.5) by which a delay is lengthened or shortened
 * @param pollInterval   how often each node looks for due deliveries
 * @param lease          how long a claimed delivery belongs to the node that claimed it; one that
 *                       died with it leaves it due again after this
 * @param timeout        the longest a try waits for its answer (connection included)
 * @param batchSize      the most deliveries a node claims at once
 * @param maxInFlight    the most tries a node has open at once
 * @param maxInFlightPerWorkspace the most tries a node has open at once for one workspace, so one
 *                       workspace's endpoints that never answer cannot hold every slot
 * @param pauseAfterTimeouts after this many tries in a row of one subscription that timed out or
 *                       could not connect, the subscription is paused: its deliveries wait, not
 *                       claimed, until an admin resumes it (or PUTs it again)
 */
@ConfigurationProperties("herald.webhooks")
public record WebhookProperties(
        @DefaultValue({"5s", "5m", "30m", "2h", "5h", "10h", "10h"}) List<Duration> retrySchedule,
        @DefaultValue("0.2") double jitter,
        @DefaultValue("1s") Duration pollInterval,
        @DefaultValue("1m") Duration lease,
        @DefaultValue("5s") Duration timeout,
        @DefaultValue("20") int batchSize,
        @DefaultValue("64") int maxInFlight,
        @DefaultValue("8") int maxInFlightPerWorkspace,
        @DefaultValue("5") int pauseAfterTimeouts) {

    public WebhookProperties {
        retrySchedule = List.copyOf(retrySchedule);
        if (retrySchedule.stream().anyMatch(d -> d.isNegative() || d.isZero())) {
            throw new IllegalArgumentException("herald.webhooks.retry-schedule must hold positive durations");
        }
        if (jitter < 0 || jitter > 0.5) {
            throw new IllegalArgumentException("herald.webhooks.jitter must be from 0 to 0.5, was " + jitter);
        }
        if (lease.compareTo(timeout.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("herald.webhooks.lease (" + lease
                    + ") must be at least twice herald.webhooks.timeout (" + timeout + ")");
        }
        if (batchSize < 1 || maxInFlight < 1 || maxInFlightPerWorkspace < 1) {
            throw new IllegalArgumentException(
                    "herald.webhooks.batch-size, max-in-flight and max-in-flight-per-workspace must be positive");
        }
        if (pauseAfterTimeouts < 1) {
            throw new IllegalArgumentException("herald.webhooks.pause-after-timeouts must be positive, was "
                    + pauseAfterTimeouts);
        }
    }
}
