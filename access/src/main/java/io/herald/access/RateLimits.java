package io.herald.access;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * One resilience4j rate limiter per key (named by key id, never by the key), held in memory: each
 * node limits what it receives, so behind a load balancer the effective limit is per node.
 */
public final class RateLimits {

    private final RateLimiterRegistry registry;

    public RateLimits(RateLimiterRegistry registry) {
        this.registry = registry;
    }

    static RateLimiterRegistry registry(SecurityProperties.RateLimit limit) {
        return RateLimiterRegistry.of(RateLimiterConfig.custom()
                .limitForPeriod(limit.limitForPeriod())
                .limitRefreshPeriod(limit.refreshPeriod())
                .timeoutDuration(Duration.ZERO)
                .build());
    }

    /** Empty when the key may send one more request now, else the seconds to wait. */
    OptionalLong refuse(String keyId) {
        RateLimiter limiter = registry.rateLimiter(keyId);
        if (limiter.acquirePermission()) {
            return OptionalLong.empty();
        }
        long millis = limiter.getRateLimiterConfig().getLimitRefreshPeriod().toMillis();
        return OptionalLong.of(Math.max(1, (millis + 999) / 1000));
    }
}
