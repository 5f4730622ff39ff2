package io.herald.deploy.webhooks;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/** When a delivery is tried next after a failed try, or that it is not (docs/api.md#webhooks). */
final class RetrySchedule {

    /** A receiver's Retry-After is honoured up to this; a longer one is taken as this. */
    static final Duration MAX_RETRY_AFTER = Duration.ofHours(24);

    private final List<Duration> delays;
    private final double jitter;
    private final DoubleSupplier random;

    RetrySchedule(List<Duration> delays, double jitter, DoubleSupplier random) {
        this.delays = List.copyOf(delays);
        this.jitter = jitter;
        this.random = random;
    }

    /**
     * The delay before the next try after {@code tries} tries, or empty when the schedule is used
     * up. The receiver's {@code Retry-After}, when longer, wins.
     */
    Optional<Duration> after(int tries, Optional<Duration> retryAfter) {
        if (tries < 1 || tries > delays.size()) {
            return Optional.empty();
        }
        Duration base = delays.get(tries - 1);
        double factor = 1 + jitter * (2 * random.getAsDouble() - 1);
        Duration delay = Duration.ofMillis(Math.max(1, Math.round(base.toMillis() * factor)));
        if (retryAfter.isPresent()) {
            Duration asked = retryAfter.get().compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : retryAfter.get();
            if (asked.compareTo(delay) > 0) {
                delay = asked;
            }
        }
        return Optional.of(delay);
    }

    int maxTries() {
        return delays.size() + 1;
    }
}
