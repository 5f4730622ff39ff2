package io.herald.deploy.axon;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.cluster.*}: how the nodes of a cluster count each other to share event processor
 * segments (Axon releases and claims them; see {@link FairSegmentShares}).
 *
 * @param balanceEnabled    {@code false}: this node takes as many segments as it can claim (it
 *                          still announces itself, so the other nodes leave it its share)
 * @param heartbeatInterval how often this node announces itself in {@code herald_node} and counts
 *                          the live nodes
 * @param nodeTimeout       a node not seen for this long no longer counts; keep it well below
 *                          Axon's claim timeout (10 s), so a dead node stops counting before the
 *                          survivors take over its segments
 */
@ConfigurationProperties("herald.cluster")
@Validated
public record ClusterProperties(
        @DefaultValue("true") boolean balanceEnabled,
        @DefaultValue("2s") @NotNull Duration heartbeatInterval,
        @DefaultValue("6s") @NotNull Duration nodeTimeout) {

    public ClusterProperties {
        requirePositive("heartbeat-interval", heartbeatInterval);
        requirePositive("node-timeout", nodeTimeout);
        if (nodeTimeout.compareTo(heartbeatInterval) <= 0) {
            throw new IllegalArgumentException("herald.cluster.node-timeout (" + nodeTimeout
                    + ") must be longer than herald.cluster.heartbeat-interval (" + heartbeatInterval + ")");
        }
    }

    private static void requirePositive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("herald.cluster." + name + " must be positive, was " + value);
        }
    }
}
