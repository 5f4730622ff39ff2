package io.herald.deploy.axon;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecentEntriesTest {

    private final AtomicLong millis = new AtomicLong(1_000_000);
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }
    };

    /**
     * The pattern of publications: each is put at intake and used twice, a while later, after
     * hundreds of newer ones arrived. With the map full of finished publications, every new one
     * must still be there when its commands come.
     */
    @Test
    void aFullMapKeepsTheNewPublicationsNotTheOftenUsedOldOnes() {
        RecentEntries entries = new RecentEntries(20_000, Duration.ofMinutes(10), clock);
        int inFlight = 500;
        assertThat(flow(entries, "old-", 38_000, inFlight)).as("gets that missed while filling").isZero();
        assertThat(entries.size()).isEqualTo(20_000);

        assertThat(flow(entries, "new-", 2_000, inFlight)).as("gets that missed with the map full").isZero();
        assertThat(entries.containsKey("old-0")).as("the entry used longest ago is gone").isFalse();
    }

    @Test
    void theEntryUsedLongestAgoGoesFirst() {
        RecentEntries entries = new RecentEntries(2, Duration.ofMinutes(10), clock);
        entries.put("a", 1);
        entries.put("b", 2);
        assertThat(entries.get("a")).isEqualTo(1);
        entries.put("c", 3);
        assertThat(entries.containsKey("a")).isTrue();
        assertThat(entries.containsKey("b")).isFalse();
        assertThat(entries.containsKey("c")).isTrue();
    }

    @Test
    void anEntryUnusedForLongerThanTheIdleTimeIsGone() {
        RecentEntries entries = new RecentEntries(10, Duration.ofMinutes(10), clock);
        entries.put("a", 1);
        entries.put("b", 2);
        millis.addAndGet(Duration.ofMinutes(6).toMillis());
        assertThat(entries.get("a")).isEqualTo(1);
        millis.addAndGet(Duration.ofMinutes(6).toMillis());
        assertThat(entries.get("a")).as("used six minutes ago").isEqualTo(1);
        assertThat(entries.get("b")).as("unused for twelve minutes").isNull();
        assertThat(entries.putIfAbsent("b", 3)).isTrue();
        assertThat(entries.putIfAbsent("b", 4)).isFalse();
        assertThat(entries.get("b")).isEqualTo(3);
    }

    @Test
    void removingAnEntryAsItWasLeavesANewerOne() {
        RecentEntries entries = new RecentEntries(10, Duration.ofMinutes(10), clock);
        Object first = new Object();
        Object second = new Object();
        entries.put("a", first);
        entries.put("a", second);
        assertThat(entries.remove("a", first)).isFalse();
        assertThat(entries.get("a")).isSameAs(second);
        assertThat(entries.remove("a", second)).isTrue();
        assertThat(entries.containsKey("a")).isFalse();
    }

    /** Puts {@code count} keys; each is read twice once {@code lag} newer keys were put. @return the misses */
    private static int flow(RecentEntries entries, String prefix, int count, int lag) {
        int misses = 0;
        for (int i = 0; i < count + lag; i++) {
            if (i < count) {
                entries.put(prefix + i, i);
            }
            int used = i - lag;
            if (used >= 0 && used < count) {
                for (int k = 0; k < 2; k++) {
                    if (entries.get(prefix + used) == null) {
                        misses++;
                    }
                }
            }
        }
        return misses;
    }
}
