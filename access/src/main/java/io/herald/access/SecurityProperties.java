package io.herald.access;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.security.*}: the system key (env {@code HERALD_SECURITY_SYSTEM_KEY}), the per-key
 * request rate, the tolerance of signed requests, whether the earlier v1 signatures (which bind
 * neither method nor path) are still accepted, and how long a node keeps a key's row and a
 * workspace's signing secret before reading them again ({@code cache-ttl}: a revocation or a new
 * secret made on another node applies here within that time). {@code key-cache-size} bounds the
 * live keys a node keeps, {@code unknown-key-cache-size} the key ids it remembers as unknown (apart,
 * so made-up keys cannot push live ones out), and {@code unauthenticated-rate-limit} the calls
 * without a valid key each client address may send (per node).
 */
@ConfigurationProperties("herald.security")
public record SecurityProperties(
        String systemKey,
        @DefaultValue RateLimit rateLimit,
        @DefaultValue("5m") Duration signatureTolerance,
        @DefaultValue("false") boolean acceptV1Signatures,
        @DefaultValue("2s") Duration cacheTtl,
        @DefaultValue("10000") int keyCacheSize,
        @DefaultValue("10000") int unknownKeyCacheSize,
        @DefaultValue UnauthenticatedRateLimit unauthenticatedRateLimit) {

    /** Each key may send {@code limitForPeriod} requests per {@code refreshPeriod}, per node. */
    public record RateLimit(@DefaultValue("50") int limitForPeriod, @DefaultValue("1s") Duration refreshPeriod) {
    }

    /**
     * Calls without a valid key (a made-up, malformed, revoked or expired key, or none where one is
     * needed) that one client address may send per {@code refreshPeriod}, per node.
     */
    public record UnauthenticatedRateLimit(@DefaultValue("20") int limitForPeriod,
                                           @DefaultValue("1s") Duration refreshPeriod) {
    }
}
