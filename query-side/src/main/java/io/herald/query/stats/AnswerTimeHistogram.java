package io.herald.query.stats;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * Answer times on a log scale: bucket {@code b} holds the answers of at most {@code 1.1^b} ms, so
 * a percentile read from the buckets is at most 10 % above the true one, whatever the range.
 */
final class AnswerTimeHistogram {

    private static final double GROWTH = 1.1;
    private static final double LOG_GROWTH = Math.log(GROWTH);

    private final TreeMap<Integer, Long> answers = new TreeMap<>();
    private long total;

    /** The bucket of an answer time; anything up to 1 ms is bucket 0. */
    static int bucketOf(Duration answerTime) {
        long millis = Math.max(1, answerTime.toMillis());
        // the small epsilon keeps exact powers (1.1^b) in bucket b despite floating-point rounding
        return (int) Math.ceil(Math.log(millis) / LOG_GROWTH - 1e-9);
    }

    /** The largest answer time (ms) a bucket holds. */
    static long upperBoundMillis(int bucket) {
        return Math.round(Math.pow(GROWTH, bucket));
    }

    void add(int bucket, long count) {
        answers.merge(bucket, count, Long::sum);
        total += count;
    }

    long total() {
        return total;
    }

    /**
     * The upper bound (ms) of the bucket holding the answer at that rank, e.g. 0.5 for the median;
     * null when there is no answer.
     */
    Long percentileMillis(double quantile) {
        if (total == 0) {
            return null;
        }
        long rank = Math.max(1, (long) Math.ceil(quantile * total));
        long seen = 0;
        for (Map.Entry<Integer, Long> bucket : answers.entrySet()) {
            seen += bucket.getValue();
            if (seen >= rank) {
                return upperBoundMillis(bucket.getKey());
            }
        }
        return upperBoundMillis(answers.lastKey());
    }

    static AnswerTimeHistogram of(Map<Integer, Long> buckets) {
        AnswerTimeHistogram histogram = new AnswerTimeHistogram();
        buckets.forEach(histogram::add);
        return histogram;
    }

    Map<Integer, Long> buckets() {
        return new TreeMap<>(answers);
    }
}
