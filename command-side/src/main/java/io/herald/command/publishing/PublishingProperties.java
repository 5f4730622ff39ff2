package io.herald.command.publishing;

import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code herald.publishing.*}: how long an attempt may go without a result before it counts as
 * interrupted ({@code attempt-timeout}), how often the sweep looks for due timer rows
 * ({@code sweep-interval}) and how many it takes at once ({@code sweep-batch-size}), and the retry policy, with per-channel-type overrides
 * ({@code herald.publishing.channels.linkedin.not-sent-max-tries=5}). There is no watchdog: the
 * dispatcher's token and the timer rows commit with the events that make work due.
 */
@ConfigurationProperties("herald.publishing")
public record PublishingProperties(Duration attemptTimeout, Duration sweepInterval, Integer sweepBatchSize,
                                   Retry retry, Map<String, Retry> channels) {

    public PublishingProperties {
        attemptTimeout = attemptTimeout != null ? attemptTimeout : Duration.ofMinutes(2);
        sweepInterval = sweepInterval != null ? sweepInterval : Duration.ofSeconds(1);
        sweepBatchSize = sweepBatchSize != null ? sweepBatchSize : 200;
        retry = Retry.withDefaults(retry, null);
        channels = channels != null ? Map.copyOf(channels) : Map.of();
    }

    /** The retry policy for a channel type: its overrides on top of the defaults. */
    public Retry retryFor(String channelType) {
        return Retry.withDefaults(channels.get(channelType), retry);
    }

    /**
     * @param notSentMaxTries     tries in all (first included) while the request provably never left
     * @param rateLimitedMaxTries rate-limit answers after which the wait stops growing; a rate limit is always retried
     * @param initialBackoff      first wait; doubles per try ({@code multiplier}), with jitter
     * @param randomization       jitter, as a fraction of the wait (0.2 = ±20%)
     * @param notReadyMaxTries    tries in all while the provider is still preparing what the step
     *                            needs (a container): each waits the provider's delay, or
     *                            {@code initialBackoff}, without growing
     */
    public record Retry(Integer notSentMaxTries, Integer rateLimitedMaxTries, Duration initialBackoff,
                        Double multiplier, Double randomization, Duration maxBackoff, Integer notReadyMaxTries) {

        static Retry withDefaults(Retry given, Retry defaults) {
            Retry base = defaults != null ? defaults
                    : new Retry(3, 8, Duration.ofSeconds(2), 2.0, 0.2, Duration.ofMinutes(10), 60);
            if (given == null) {
                return base;
            }
            return new Retry(
                    given.notSentMaxTries != null ? given.notSentMaxTries : base.notSentMaxTries,
                    given.rateLimitedMaxTries != null ? given.rateLimitedMaxTries : base.rateLimitedMaxTries,
                    given.initialBackoff != null ? given.initialBackoff : base.initialBackoff,
                    given.multiplier != null ? given.multiplier : base.multiplier,
                    given.randomization != null ? given.randomization : base.randomization,
                    given.maxBackoff != null ? given.maxBackoff : base.maxBackoff,
                    given.notReadyMaxTries != null ? given.notReadyMaxTries : base.notReadyMaxTries);
        }
    }
}
