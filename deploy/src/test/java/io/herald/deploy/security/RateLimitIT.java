package io.herald.deploy.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class RateLimitIT extends SecurityIntegrationTest {

    @Autowired
    RateLimiterRegistry apiKeyRateLimiters;

    @Test
    void aKeyOverItsLimitGets429WithRetryAfterWhileOtherKeysGoOn() {
        String ws = newWorkspace("limited");
        createWorkspace(ws);
        String limited = createKey(ws, List.of("operator"), "busy");
        String other = createKey(ws, List.of("operator"), "calm");
        // this key's own limiter, registered before its first request: 3 per hour, so no timing matters
        apiKeyRateLimiters.rateLimiter(limited.substring(0, limited.indexOf('.')), RateLimiterConfig.custom()
                .limitForPeriod(3).limitRefreshPeriod(Duration.ofHours(1)).timeoutDuration(Duration.ZERO).build());
        String path = "/api/v1/workspaces/" + ws + "/decisions";

        for (int i = 0; i < 3; i++) {
            assertThat(sendAs(limited, "GET", path, null).status()).isEqualTo(200);
        }
        Response refused = sendAs(limited, "GET", path, null);

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.json().get("code").asText()).isEqualTo("rate_limited");
        assertThat(refused.retryAfter()).isEqualTo("3600");
        assertThat(refused.body()).doesNotContain(limited);
        assertThat(sendAs(other, "GET", path, null).status()).isEqualTo(200);
    }
}
