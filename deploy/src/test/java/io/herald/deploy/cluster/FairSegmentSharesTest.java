package io.herald.deploy.cluster;

import static io.herald.deploy.axon.FairSegmentShares.fairShare;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.deploy.axon.ClusterProperties;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The fair share Axon is given as each processor's segment limit, and the cluster settings' checks. */
class FairSegmentSharesTest {

    @Test
    void theFairShareIsTheSegmentsPerLiveNodeRoundedUp() {
        assertThat(fairShare(16, 1)).isEqualTo(16);
        assertThat(fairShare(16, 2)).isEqualTo(8);
        assertThat(fairShare(16, 3)).isEqualTo(6);
        assertThat(fairShare(16, 5)).isEqualTo(4);
        assertThat(fairShare(16, 16)).isEqualTo(1);
        assertThat(fairShare(16, 40)).isEqualTo(1);
        assertThat(fairShare(15, 2)).isEqualTo(8);
        assertThat(fairShare(2, 2)).isEqualTo(1);
    }

    @Test
    void aLimitIsNeverZeroSoThatSomeNodeAlwaysClaims() {
        assertThat(fairShare(16, 0)).isEqualTo(16);
        assertThat(fairShare(0, 3)).isEqualTo(1);
        assertThat(fairShare(1, 3)).isEqualTo(1);
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
    void aNodeTimeoutWithinOneHeartbeatIsRefused() {
        assertThatThrownBy(() -> new ClusterProperties(true, Duration.ofSeconds(2), Duration.ofSeconds(2)))
                .hasMessageContaining("node-timeout");
        assertThatThrownBy(() -> new ClusterProperties(true, Duration.ZERO, Duration.ofSeconds(6)))
                .hasMessageContaining("heartbeat-interval");
    }
}
