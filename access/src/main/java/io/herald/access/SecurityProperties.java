package io.herald.access;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.security.*}: the system key (env {@code HERALD_SECURITY_SYSTEM_KEY}), the per-key
 * request rate, the tolerance of signed requests, whether the earlier v1 signatures (which bind
 * neither method nor path) are still accepted, and how long a node keeps a key's row and a
 * workspace's signing secret before reading them again ({@code cache-ttl}: a revocation or a new
 * secret made on another node applies here within that time).
 */
@ConfigurationProperties("herald.security")
public record SecurityProperties(
        String systemKey,
        @DefaultValue RateLimit rateLimit,
        @DefaultValue("5m") Duration signatureTolerance,
        @DefaultValue("false") boolean acceptV1Signatures,
        @DefaultValue("2s") Duration cacheTtl) {

    /** Each key may send {@code limitForPeriod} requests per {@code refreshPeriod}, per node. */
    public record RateLimit(@DefaultValue("50") int limitForPeriod, @DefaultValue("1s") Duration refreshPeriod) {
    }
}
