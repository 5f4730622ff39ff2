package io.herald.deploy.cluster;

import static io.herald.deploy.axon.SegmentBalancer.backoff;
import static io.herald.deploy.axon.SegmentBalancer.chooseReleases;
import static io.herald.deploy.axon.SegmentBalancer.fairShare;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.deploy.axon.BalancerProperties;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The segment balancer's arithmetic: fair shares, which segments go, how long a node waits. */
class SegmentBalancerTest {

    private static final Set<Integer> ALL_16 = IntStream.range(0, 16).boxed().collect(Collectors.toSet());

    @Test
    void theFairShareIsTheSegmentsPerLiveNodeRoundedUp() {
        assertThat(fairShare(16, 1)).isEqualTo(16);
        assertThat(fairShare(16, 2)).isEqualTo(8);
        assertThat(fairShare(16, 3)).isEqualTo(6);
        assertThat(fairShare(16, 5)).isEqualTo(4);
        assertThat(fairShare(16, 16)).isEqualTo(1);
        assertThat(fairShare(16, 40)).isEqualTo(1);
        assertThat(fairShare(15, 2)).isEqualTo(8);
    }

    @Test
    void noLiveNodeOrNoSegmentMeansNothingToGiveAway() {
        assertThat(fairShare(16, 0)).isEqualTo(16);
        assertThat(fairShare(0, 3)).isZero();
    }

    @Test
    void theSharesOfAllLiveNodesCoverEverySegment() {
        for (int segments = 1; segments <= 64; segments++) {
            for (int nodes = 1; nodes <= 20; nodes++) {
                assertThat(fairShare(segments, nodes) * nodes).as("%d segments, %d nodes", segments, nodes)
                        .isGreaterThanOrEqualTo(segments);
                assertThat(fairShare(segments, nodes) * nodes).isLessThan(segments + nodes);
            }
        }
    }

    @Test
    void aNodeWithAllSixteenOfTwoGivesAwayItsEightHighest() {
        int held = ALL_16.size();
        assertThat(chooseReleases(ALL_16, Set.of(), held - fairShare(16, 2)))
                .containsExactly(15, 14, 13, 12, 11, 10, 9, 8);
    }

    @Test
    void aNodeAtOrBelowItsShareKeepsEverything() {
        assertThat(chooseReleases(Set.of(0, 1, 2, 3, 4, 5, 6, 7), Set.of(), 8 - fairShare(16, 2))).isEmpty();
        assertThat(chooseReleases(Set.of(0, 1, 2), Set.of(), 3 - fairShare(16, 2))).isEmpty();
        assertThat(chooseReleases(Set.of(), Set.of(), 0)).isEmpty();
    }

    @Test
    void aSegmentInTheMiddleOfAMergeStays() {
        assertThat(chooseReleases(List.of(3, 9, 12, 15), Set.of(15, 12), 2)).containsExactly(9, 3);
        assertThat(chooseReleases(List.of(3, 15), Set.of(15), 2)).containsExactly(3);
    }

    @Test
    void releasesNobodyTookDoubleTheWaitUpToALimit() {
        Duration releaseFor = Duration.ofSeconds(20);
        assertThat(backoff(releaseFor, 0)).isEqualTo(Duration.ofSeconds(20));
        assertThat(backoff(releaseFor, 1)).isEqualTo(Duration.ofSeconds(40));
        assertThat(backoff(releaseFor, 3)).isEqualTo(Duration.ofSeconds(160));
        assertThat(backoff(releaseFor, 99)).isEqualTo(releaseFor.multipliedBy(32));
    }

    @Test
    void aReleaseLastsTwiceTheIntervalAndLongEnoughForAnotherNodeToClaim() {
        assertThat(properties(Duration.ofSeconds(10), null).effectiveReleaseFor()).isEqualTo(Duration.ofSeconds(20));
        assertThat(properties(Duration.ofSeconds(2), null).effectiveReleaseFor()).isEqualTo(Duration.ofSeconds(15));
        assertThat(properties(Duration.ofSeconds(2), Duration.ofSeconds(7)).effectiveReleaseFor())
                .isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void aNodeTimeoutWithinOneHeartbeatIsRefused() {
        assertThatThrownBy(() -> new BalancerProperties(true, Duration.ofSeconds(10), null, Duration.ofSeconds(2),
                Duration.ofSeconds(2))).hasMessageContaining("node-timeout");
        assertThatThrownBy(() -> properties(Duration.ZERO, null)).hasMessageContaining("balance-interval");
    }

    private static BalancerProperties properties(Duration interval, Duration releaseFor) {
        return new BalancerProperties(true, interval, releaseFor, Duration.ofSeconds(2), Duration.ofSeconds(6));
    }
}
