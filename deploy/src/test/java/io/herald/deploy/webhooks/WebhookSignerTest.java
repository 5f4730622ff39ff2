package io.herald.deploy.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WebhookSignerTest {

    /** The Standard Webhooks specification's published example. */
    private static final String SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final long SPEC_TIMESTAMP = 1614265330L;
    private static final String SPEC_BODY = "{\"test\": 2432232314}";
    private static final String SPEC_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    @Test
    void signsTheSpecificationsTestVector() {
        assertThat(WebhookSigner.sign(SPEC_SECRET, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY)).isEqualTo(SPEC_SIGNATURE);
        assertThat(WebhookSigner.signature(List.of(SPEC_SECRET), SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY))
                .isEqualTo(SPEC_SIGNATURE);
    }

    @Test
    void signsWithEverySecretNewestFirstSpaceSeparatedAndEachVerifies() throws Exception {
        String newer = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[32]);
        long now = Instant.now().getEpochSecond();
        String header = WebhookSigner.signature(List.of(newer, SPEC_SECRET), "msg_1", now, "{}");

        String[] signatures = header.split(" ");
        assertThat(signatures).hasSize(2);
        assertThat(signatures[0]).isEqualTo(WebhookSigner.sign(newer, "msg_1", now, "{}"));
        assertThat(signatures[1]).isEqualTo(WebhookSigner.sign(SPEC_SECRET, "msg_1", now, "{}"));
        Map<String, List<String>> headers = Map.of("webhook-id", List.of("msg_1"),
                "webhook-timestamp", List.of(Long.toString(now)), "webhook-signature", List.of(header));
        new Webhook(newer).verify("{}", headers);
        new Webhook(SPEC_SECRET).verify("{}", headers);
        assertThatThrownBy(() -> new Webhook(SPEC_SECRET).verify("{ }", headers))
                .isInstanceOf(WebhookVerificationException.class);
    }

    @Test
    void theScheduleGrowsWithJitterHonoursRetryAfterAndEnds() {
        List<Duration> delays = List.of(Duration.ofSeconds(5), Duration.ofMinutes(5), Duration.ofMinutes(30));
        RetrySchedule lowest = new RetrySchedule(delays, 0.2, () -> 0.0);
        RetrySchedule highest = new RetrySchedule(delays, 0.2, () -> 1.0);
        assertThat(lowest.after(1, Optional.empty())).contains(Duration.ofSeconds(4));
        assertThat(highest.after(1, Optional.empty())).contains(Duration.ofSeconds(6));
        assertThat(lowest.after(2, Optional.empty())).contains(Duration.ofMinutes(4));
        assertThat(highest.after(3, Optional.empty())).contains(Duration.ofMinutes(36));
        assertThat(lowest.after(4, Optional.empty())).as("the schedule is used up").isEmpty();
        assertThat(lowest.maxTries()).isEqualTo(4);
        // a longer Retry-After wins, a shorter one does not shorten the schedule, a huge one is capped
        assertThat(lowest.after(1, Optional.of(Duration.ofSeconds(90)))).contains(Duration.ofSeconds(90));
        assertThat(lowest.after(2, Optional.of(Duration.ofSeconds(1)))).contains(Duration.ofMinutes(4));
        assertThat(lowest.after(1, Optional.of(Duration.ofDays(30)))).contains(RetrySchedule.MAX_RETRY_AFTER);
    }

    @Test
    void theDefaultScheduleIsDesignsSchedule() {
        WebhookProperties defaults = new WebhookProperties(List.of(Duration.ofSeconds(5), Duration.ofMinutes(5),
                Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(5), Duration.ofHours(10),
                Duration.ofHours(10)), 0.2, Duration.ofSeconds(1), Duration.ofMinutes(1), Duration.ofSeconds(5), 20,
                64, 8, 5);
        assertThat(defaults.retrySchedule()).hasSize(7);
        assertThatThrownBy(() -> new WebhookProperties(List.of(Duration.ofSeconds(1)), 0.9, Duration.ofSeconds(1),
                Duration.ofMinutes(1), Duration.ofSeconds(5), 20, 64, 8, 5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void redirectsTimeoutsThrottlingAndServerErrorsAreRetriedOtherClientErrorsAreNot() {
        for (int status : new int[] {300, 301, 302, 307, 308, 408, 429, 500, 502, 503, 504}) {
            assertThat(WebhookSender.retryable(status)).as("%d", status).isTrue();
        }
        for (int status : new int[] {400, 401, 403, 404, 405, 410, 413, 422}) {
            assertThat(WebhookSender.retryable(status)).as("%d", status).isFalse();
        }
    }
}
