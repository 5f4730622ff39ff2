package io.herald.adapters.port;

import java.time.Instant;

/**
 * What one provider answer said about the connection's budget (its usage headers), in one shape
 * for every channel: calls left in the provider's current window ({@code remaining}, Mastodon's
 * {@code X-RateLimit-Remaining}, Bluesky's {@code ratelimit-remaining}), or the share of it used
 * ({@code percentUsed}, Facebook's {@code X-App-Usage} / {@code X-Business-Use-Case-Usage}), and
 * when the provider lets calls through again ({@code resetsAt}: a reset header, or Facebook's
 * {@code estimated_time_to_regain_access}). The budget's arithmetic lives here, once; the plug-in
 * only reads its headers.
 *
 * @param observedAt when the call the answer is about was sent: the provider counted it then
 */
public record ProviderUsage(Integer remaining, Integer percentUsed, Instant resetsAt, Instant observedAt) {

    /** A share this close to the whole is treated as spent: calls already under way use the rest. */
    public static final int NEAR_FULL_PERCENT = 95;

    public ProviderUsage {
        if (remaining == null && percentUsed == null && resetsAt == null) {
            throw new IllegalArgumentException("a usage report says at least one thing");
        }
    }

    public static ProviderUsage remaining(int remaining, Instant resetsAt, Instant observedAt) {
        return new ProviderUsage(Math.max(0, remaining), null, resetsAt, observedAt);
    }

    public static ProviderUsage percent(int percentUsed, Instant regainAt, Instant observedAt) {
        return new ProviderUsage(null, Math.max(0, percentUsed), regainAt, observedAt);
    }

    /** Whether the provider's window has no room left for another call. */
    public boolean spent() {
        return (remaining != null && remaining <= 0)
                || (percentUsed != null && percentUsed >= NEAR_FULL_PERCENT);
    }

    /**
     * The calls of a window of {@code capacity} that are already used by this report's count: the
     * provider's figure, which includes other apps' calls on the same budget; never more than the
     * whole window.
     */
    public int usedOf(int capacity) {
        if (spent()) {
            return capacity;
        }
        if (percentUsed != null) {
            return Math.min(capacity, (int) Math.ceil(capacity * percentUsed / 100.0));
        }
        return Math.max(0, capacity - remaining);
    }

    /** Until when no call should start: the reset time of a spent window that is still ahead, else none. */
    public Instant waitUntil(Instant now) {
        return spent() && resetsAt != null && resetsAt.isAfter(now) ? resetsAt : null;
    }
}
