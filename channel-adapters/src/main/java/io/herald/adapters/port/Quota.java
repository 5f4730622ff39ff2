package io.herald.adapters.port;

import java.time.Duration;

/**
 * A provider's documented limit on one connection's calls: at most {@code capacity} in each
 * {@code window}, windows aligned to the epoch in UTC (a day ends at midnight UTC, as LinkedIn's
 * and Bluesky's daily limits do).
 *
 * @param name   the window's name in the budget rows, e.g. {@code day}
 * @param source where the limit comes from, as the channel listing's {@code budget.source} says it
 */
public record Quota(String name, int capacity, Duration window, String source) {

    public Quota {
        if (capacity < 1 || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("a quota allows at least one call in a positive window");
        }
    }

    /** A limit the provider documents (its answers carry no usage headers for it). */
    public static Quota documented(String name, int capacity, Duration window) {
        return new Quota(name, capacity, window, "quota");
    }
}
