package io.herald.query.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AnswerTimeHistogramTest {

    @Test
    void aBucketsUpperBoundIsAtMostTenPercentAboveWhatItHolds() {
        for (long millis : new long[] {1, 2, 7, 99, 100, 101, 1234, 30_000, 120_000}) {
            long bound = AnswerTimeHistogram.upperBoundMillis(AnswerTimeHistogram.bucketOf(Duration.ofMillis(millis)));
            assertThat(bound).as("bound of %d ms", millis).isBetween(millis, (long) Math.ceil(millis * 1.1) + 1);
        }
    }

    @Test
    void percentilesComeFromTheRankedBucket() {
        AnswerTimeHistogram histogram = new AnswerTimeHistogram();
        for (int i = 1; i <= 100; i++) {
            histogram.add(AnswerTimeHistogram.bucketOf(Duration.ofMillis(i * 10L)), 1);
        }
        assertThat(histogram.total()).isEqualTo(100);
        assertThat(histogram.percentileMillis(0.5)).isBetween(500L, 550L);
        assertThat(histogram.percentileMillis(0.95)).isBetween(950L, 1045L);
        assertThat(new AnswerTimeHistogram().percentileMillis(0.5)).isNull();
    }
}
