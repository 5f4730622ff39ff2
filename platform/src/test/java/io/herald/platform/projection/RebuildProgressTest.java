package io.herald.platform.projection;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RebuildProgressTest {

    private static final Instant STARTED = Instant.parse("2026-12-07T10:00:00Z");

    @Test
    void theRateIsSinceTheStartAndWhatIsLeftGoesAtThatRate() {
        RebuildProgress halfway = new RebuildProgress(true, 150_000, 300_000L, STARTED, 3.0);
        assertThat(halfway.eventsPerSecond()).isEqualTo(50_000);
        assertThat(halfway.etaSeconds()).isEqualTo(3);
        assertThat(halfway.describe("publication-view"))
                .isEqualTo("projection publication-view: 150,000 of 300,000 events, 50,000 events/s, about 3s left");
    }

    @Test
    void nothingIsForetoldBeforeTheFirstPageOrTheCountOrAfterTheEnd() {
        assertThat(new RebuildProgress(true, 0, 300_000L, STARTED, 0.5).etaSeconds()).isNull();
        assertThat(new RebuildProgress(true, 0, 300_000L, STARTED, 0).eventsPerSecond()).isZero();
        assertThat(new RebuildProgress(true, 2_000, null, STARTED, 1).etaSeconds()).isNull();
        RebuildProgress done = new RebuildProgress(false, 300_000, 300_000L, STARTED, 6.0);
        assertThat(done.etaSeconds()).isNull();
        assertThat(done.eventsPerSecond()).isEqualTo(50_000);
    }

    @Test
    void eventsAppendedSinceTheCountLeaveNothingToWaitFor() {
        assertThat(new RebuildProgress(true, 300_010, 300_000L, STARTED, 6.0).etaSeconds()).isZero();
    }
}
