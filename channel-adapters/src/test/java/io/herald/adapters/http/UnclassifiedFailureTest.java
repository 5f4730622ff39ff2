package io.herald.adapters.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.contracts.publication.UnknownCause;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class UnclassifiedFailureTest {

    private static final String SECRET = "EAAGunclassifiedSecretToken";

    @Test
    void anUnforeseenFailureAfterSendingIsAnUnknownOutcomeWithoutTheSecret() {
        CompletableFuture<PublishOutcome> failing =
                CompletableFuture.failedFuture(new IllegalStateException("boom with " + SECRET));

        PublishOutcome outcome = UnclassifiedFailure.asPublishOutcome(failing, "f".repeat(64), "page-1",
                Instant.parse("2026-11-29T10:00:00Z"), List.of(SECRET)).join();

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class, unknown -> {
            assertThat(unknown.cause()).isEqualTo(UnknownCause.UNPARSABLE_RESPONSE);
            assertThat(unknown.detail()).contains("IllegalStateException").doesNotContain(SECRET);
            assertThat(unknown.trace().sentAt()).isEqualTo(Instant.parse("2026-11-29T10:00:00Z"));
        });
    }

    @Test
    void readBackAndProbeFailuresBecomeUnknownAndUnavailable() {
        ReadBackOutcome readBack = UnclassifiedFailure.asReadBackOutcome(CompletableFuture.failedFuture(new NullPointerException()),
                "page-1", List.of()).join();
        CapabilityReport probe = UnclassifiedFailure.asCapabilityReport(CompletableFuture.failedFuture(new NullPointerException()),
                "page-1", List.of()).join();

        assertThat(readBack).isInstanceOf(ReadBackOutcome.Unknown.class);
        assertThat(probe.publish().available()).isFalse();
        assertThat(probe.reconcile().available()).isFalse();
    }
}
