package io.herald.command.health;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.channels.*} of connection health.
 *
 * @param expiryWarning       how long before a token's known expiry the connection warns (docs/architecture.md#connection-health)
 * @param expirySweepInterval how often expiries (and API version sunsets) are checked against their windows
 * @param versionWarning      how long before a provider API version's sunset the connection warns
 * @param tokenRefreshBefore  how long before its known expiry a refreshable token is renewed
 * @param tokenRefreshInterval how often refreshable tokens are looked for
 */
@ConfigurationProperties("herald.channels")
public record ConnectionHealthProperties(
        @DefaultValue("7d") Duration expiryWarning,
        @DefaultValue("10m") Duration expirySweepInterval,
        @DefaultValue("60d") Duration versionWarning,
        @DefaultValue("7d") Duration tokenRefreshBefore,
        @DefaultValue("1h") Duration tokenRefreshInterval) {
}
