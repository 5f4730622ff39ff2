package io.herald.access;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.OptionalLong;

/**
 * A limit on calls without a valid key, per client address and node: a made-up, malformed,
 * revoked or expired key, or none where one is needed. Once an address has used up its calls,
 * its next presented key is refused before any lookup, so guessing keys costs the database nothing
 * more. Calls with a valid key are limited per key instead ({@link RateLimits}). An IPv6 client
 * counts by its /64, which one host can fill with addresses of its own. The limiters are held in a
 * bounded cache: an address not seen for a while starts afresh.
 */
public final class ClientAddressLimits {

    private static final int MAX_ADDRESSES = 100_000;

    private final RateLimiterConfig config;
    private final Cache<String, RateLimiter> limiters;

    public ClientAddressLimits(SecurityProperties.UnauthenticatedRateLimit limit) {
        this.config = RateLimiterConfig.custom()
                .limitForPeriod(limit.limitForPeriod())
                .limitRefreshPeriod(limit.refreshPeriod())
                .timeoutDuration(Duration.ZERO)
                .build();
        Duration idle = limit.refreshPeriod().multipliedBy(2).compareTo(Duration.ofMinutes(10)) > 0
                ? limit.refreshPeriod().multipliedBy(2) : Duration.ofMinutes(10);
        this.limiters = Caffeine.newBuilder().maximumSize(MAX_ADDRESSES).expireAfterAccess(idle).build();
    }

    /** Gives one address limits of its own (an operator's monitoring host, a test's client). */
    public void override(String address, RateLimiterConfig limits) {
        String bucket = bucket(address);
        limiters.put(bucket, RateLimiter.of(bucket, limits));
    }

    /** Empty while the address may still send a call without a valid key, else the seconds to wait; takes nothing. */
    OptionalLong exhausted(String address) {
        RateLimiter limiter = limiter(address);
        return limiter.getMetrics().getAvailablePermissions() > 0 ? OptionalLong.empty() : retryAfter(limiter);
    }

    /** Counts one call without a valid key: empty when it was within the limit, else the seconds to wait. */
    OptionalLong refuse(String address) {
        RateLimiter limiter = limiter(address);
        return limiter.acquirePermission() ? OptionalLong.empty() : retryAfter(limiter);
    }

    private RateLimiter limiter(String address) {
        return limiters.get(bucket(address), name -> RateLimiter.of(name, config));
    }

    private static OptionalLong retryAfter(RateLimiter limiter) {
        long millis = limiter.getRateLimiterConfig().getLimitRefreshPeriod().toMillis();
        return OptionalLong.of(Math.max(1, (millis + 999) / 1000));
    }

    /** The address itself, or for IPv6 its /64. Only literals arrive here: nothing is looked up. */
    static String bucket(String address) {
        if (address == null || address.indexOf(':') < 0) {
            return String.valueOf(address);
        }
        try {
            InetAddress parsed = InetAddress.getByName(address);
            if (parsed instanceof Inet6Address) {
                byte[] prefix = Arrays.copyOf(parsed.getAddress(), 16);
                Arrays.fill(prefix, 8, 16, (byte) 0);
                return InetAddress.getByAddress(prefix).getHostAddress() + "/64";
            }
            return parsed.getHostAddress();
        } catch (UnknownHostException e) {
            return address;
        }
    }
}
