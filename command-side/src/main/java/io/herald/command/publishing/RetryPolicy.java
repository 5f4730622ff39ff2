package io.herald.command.publishing;

import io.github.resilience4j.core.IntervalFunction;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.publication.FailureKind;
import java.time.Duration;
import java.time.Instant;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Component;

/**
 * When to try again after a failure, if at all. Only failures that provably did not execute are
 * retried: a request that never left, or one the provider refused for a rate limit. A rejection is
 * never retried, and an unknown outcome never reaches here. A rate limit is the connection's, not
 * the publication's: it is always retried, never counts against the other kinds' tries, and its
 * wait stops growing after {@code rate-limited-max-tries} answers. The publication asks it, with the
 * failure counts from its own history, as a parameter of its command handler.
 */
@Component
@EnableConfigurationProperties(PublishingProperties.class)
public class RetryPolicy {

    private final PublishingProperties properties;

    public RetryPolicy(PublishingProperties properties) {
        this.properties = properties;
    }

    /**
     * @param failuresOfKind failures of this kind so far, the current one included
     * @return when to retry, or null when the failure is final
     */
    public Instant retryAt(ChannelType channelType, FailureKind kind, int failuresOfKind, Duration providerDelay,
                           Instant now) {
        return retryAt(kind, failuresOfKind, providerDelay, properties.retryFor(channelType.wireName()), now);
    }

    /**
     * Whether a converging step (update, delete) whose change a read-back showed missing may be
     * sent again for the {@code resendNo}-th time: as often as a request that never left is retried.
     */
    public boolean mayResend(ChannelType channelType, int resendNo) {
        return resendNo < properties.retryFor(channelType.wireName()).notSentMaxTries();
    }

    /**
     * @param failuresOfKind failures of this kind so far, the current one included
     * @return when to retry, or null when the failure is final
     */
    static Instant retryAt(FailureKind kind, int failuresOfKind, Duration providerDelay,
                           PublishingProperties.Retry policy, Instant now) {
        int maxTries = switch (kind) {
            case NOT_SENT -> policy.notSentMaxTries();
            case RATE_LIMITED -> Integer.MAX_VALUE;
            case NOT_READY -> policy.notReadyMaxTries();
            case REJECTED -> 0;
        };
        if (failuresOfKind >= maxTries) {
            return null;
        }
        if (kind == FailureKind.NOT_READY) {
            // a steady poll of something the provider is still preparing: no growth, the provider's pace
            return now.plus(providerDelay != null ? providerDelay : policy.initialBackoff());
        }
        int growth = kind == FailureKind.RATE_LIMITED
                ? Math.min(failuresOfKind, Math.max(1, policy.rateLimitedMaxTries())) : failuresOfKind;
        Duration backoff = Duration.ofMillis(IntervalFunction.ofExponentialRandomBackoff(
                policy.initialBackoff(), policy.multiplier(), policy.randomization(), policy.maxBackoff())
                .apply(growth));
        // a provider's own delay is a floor: never call before it said we may
        Duration wait = providerDelay != null && providerDelay.compareTo(backoff) > 0 ? providerDelay : backoff;
        return now.plus(wait);
    }
}
