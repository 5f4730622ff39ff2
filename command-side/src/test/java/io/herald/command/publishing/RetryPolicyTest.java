package io.herald.command.publishing;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.publication.FailureKind;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private final PublishingProperties.Retry policy = new PublishingProperties(null, null, null, null, null).retryFor("facebook");

    @Test
    void retriesWhatNeverLeftThreeTimesInAll() {
        assertThat(RetryPolicy.retryAt(FailureKind.NOT_SENT, 1, null, policy, NOW)).isAfter(NOW);
        assertThat(RetryPolicy.retryAt(FailureKind.NOT_SENT, 2, null, policy, NOW)).isAfter(NOW);
        assertThat(RetryPolicy.retryAt(FailureKind.NOT_SENT, 3, null, policy, NOW)).isNull();
    }

    @Test
    void backsOffExponentiallyWithJitter() {
        Duration first = Duration.between(NOW, RetryPolicy.retryAt(FailureKind.NOT_SENT, 1, null, policy, NOW));
        Duration second = Duration.between(NOW, RetryPolicy.retryAt(FailureKind.NOT_SENT, 2, null, policy, NOW));
        assertThat(first).isBetween(Duration.ofMillis(1600), Duration.ofMillis(2400));
        assertThat(second).isBetween(Duration.ofMillis(3200), Duration.ofMillis(4800));
    }

    @Test
    void neverCallsBeforeTheProvidersDelay() {
        Instant at = RetryPolicy.retryAt(FailureKind.RATE_LIMITED, 1, Duration.ofMinutes(7), policy, NOW);
        assertThat(at).isEqualTo(NOW.plus(Duration.ofMinutes(7)));
    }

    @Test
    void aRateLimitIsAlwaysRetriedAndItsWaitStopsGrowing() {
        Instant eighth = RetryPolicy.retryAt(FailureKind.RATE_LIMITED, 8, null, policy, NOW);
        Instant hundredth = RetryPolicy.retryAt(FailureKind.RATE_LIMITED, 100, null, policy, NOW);
        assertThat(hundredth).isNotNull();
        assertThat(Duration.between(NOW, hundredth)).isLessThanOrEqualTo(policy.maxBackoff());
        assertThat(Duration.between(NOW, eighth)).isLessThanOrEqualTo(policy.maxBackoff());
    }

    @Test
    void neverRetriesARejection() {
        assertThat(RetryPolicy.retryAt(FailureKind.REJECTED, 1, null, policy, NOW)).isNull();
    }

    @Test
    void perChannelOverridesTakePrecedence() {
        var properties = new PublishingProperties(null, null, null, null, java.util.Map.of("linkedin",
                new PublishingProperties.Retry(5, null, null, null, null, null, null)));
        assertThat(properties.retryFor("linkedin").notSentMaxTries()).isEqualTo(5);
        assertThat(properties.retryFor("linkedin").rateLimitedMaxTries()).isEqualTo(8);
        assertThat(properties.retryFor("facebook").notSentMaxTries()).isEqualTo(3);
    }
}
