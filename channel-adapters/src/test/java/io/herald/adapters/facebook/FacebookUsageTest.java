package io.herald.adapters.facebook;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.RateLimitHeaders;
import io.herald.adapters.port.ProviderUsage;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The providers' usage headers as one {@link ProviderUsage}, and its arithmetic: the share used
 * of a window, when a spent window lets calls through again.
 */
class FacebookUsageTest {

    private static final Instant SENT = Instant.parse("2026-12-06T09:00:00Z");

    @Test
    void theHighestShareOfTheAppsAndThePagesUsageCounts() {
        ProviderUsage usage = FacebookUsage.of(answer(Map.of(
                "x-app-usage", "{\"call_count\":40,\"total_time\":12,\"total_cputime\":9}",
                "x-business-use-case-usage", "{\"123\":[{\"type\":\"pages\",\"call_count\":3,\"total_cputime\":55,"
                        + "\"total_time\":7,\"estimated_time_to_regain_access\":0}]}"))).orElseThrow();
        assertThat(usage.percentUsed()).isEqualTo(55);
        assertThat(usage.spent()).isFalse();
        assertThat(usage.usedOf(200)).isEqualTo(110);
        assertThat(usage.waitUntil(SENT)).isNull();
    }

    @Test
    void aSpentPageBudgetWaitsUntilTheEstimatedTimeToRegainAccess() {
        ProviderUsage usage = FacebookUsage.of(answer(Map.of(
                "x-business-use-case-usage", "{\"123\":[{\"type\":\"pages\",\"call_count\":100,\"total_cputime\":1,"
                        + "\"total_time\":1,\"estimated_time_to_regain_access\":7}]}"))).orElseThrow();
        assertThat(usage.spent()).isTrue();
        assertThat(usage.usedOf(200)).isEqualTo(200);
        assertThat(usage.waitUntil(SENT.plusSeconds(5))).isEqualTo(SENT.plus(Duration.ofMinutes(7)));
    }

    @Test
    void nearlyFullIsSpentAndNoHeadersSayNothing() {
        assertThat(FacebookUsage.of(answer(Map.of("x-app-usage", "{\"call_count\":96}"))).orElseThrow().spent())
                .isTrue();
        assertThat(FacebookUsage.of(answer(Map.of()))).isEmpty();
    }

    @Test
    void mastodonAndBlueskyCountCallsLeftAndTheirReset() {
        ProviderUsage mastodon = RateLimitHeaders.usage(answer(Map.of("X-RateLimit-Remaining", "0",
                "X-RateLimit-Reset", "2026-12-06T09:05:00.000Z")), "X-RateLimit-Remaining", "X-RateLimit-Reset")
                .orElseThrow();
        assertThat(mastodon.spent()).isTrue();
        assertThat(mastodon.waitUntil(SENT)).isEqualTo(Instant.parse("2026-12-06T09:05:00Z"));
        ProviderUsage bluesky = RateLimitHeaders.usage(answer(Map.of("ratelimit-remaining", "4000",
                "ratelimit-reset", Long.toString(SENT.plusSeconds(3600).getEpochSecond()))), "ratelimit-remaining",
                "ratelimit-reset").orElseThrow();
        assertThat(bluesky.spent()).isFalse();
        assertThat(bluesky.usedOf(5000)).isEqualTo(1000);
        assertThat(bluesky.resetsAt()).isEqualTo(SENT.plusSeconds(3600));
    }

    private static Exchange.Answered answer(Map<String, String> headers) {
        Map<String, List<String>> values = new java.util.HashMap<>();
        headers.forEach((name, value) -> values.put(name, List.of(value)));
        OutgoingRequest request = new OutgoingRequest("POST", URI.create("https://graph.example/123/feed"), Map.of(),
                "", "application/x-www-form-urlencoded", "fp", "123", List.of());
        return new Exchange.Answered(request, 200, HttpHeaders.of(values, (n, v) -> true), "{\"id\":\"1\"}", SENT, 5,
                false);
    }
}
