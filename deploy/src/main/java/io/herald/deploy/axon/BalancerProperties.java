package io.herald.deploy.axon;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.cluster.*}: how the nodes of a cluster share event processor segments.
 *
 * @param balanceEnabled    {@code false}: this node never gives segments away (it still announces
 *                          itself, so the other nodes share theirs with it)
 * @param balanceInterval   how often this node compares what it holds with its fair share
 * @param releaseFor        how long a released segment stays off limits to this node, so another
 *                          node can claim it; unset: twice the interval, at least 15 s (Axon's
 *                          processors look for unclaimed segments every 5 s)
 * @param heartbeatInterval how often this node announces itself in {@code herald_node}
 * @param nodeTimeout       a node not seen for this long no longer counts; keep it well below
 *                          Axon's claim timeout (10 s), so a dead node stops counting before the
 *                          survivors take over its segments
 */
@ConfigurationProperties("herald.cluster")
public record BalancerProperties(
        @DefaultValue("true") boolean balanceEnabled,
        @DefaultValue("10s") Duration balanceInterval,
        Duration releaseFor,
        @DefaultValue("2s") Duration heartbeatInterval,
        @DefaultValue("6s") Duration nodeTimeout) {

    private static final Duration MIN_RELEASE = Duration.ofSeconds(15);

    public BalancerProperties {
        requirePositive("balance-interval", balanceInterval);
        requirePositive("heartbeat-interval", heartbeatInterval);
        requirePositive("node-timeout", nodeTimeout);
        if (releaseFor != null) {
            requirePositive("release-for", releaseFor);
        }
        if (nodeTimeout.compareTo(heartbeatInterval) <= 0) {
            throw new IllegalArgumentException("herald.cluster.node-timeout (" + nodeTimeout
                    + ") must be longer than herald.cluster.heartbeat-interval (" + heartbeatInterval + ")");
        }
    }

    /** How long a released segment stays off limits to this node. */
    public Duration effectiveReleaseFor() {
        if (releaseFor != null) {
            return releaseFor;
        }
        Duration twice = balanceInterval.multipliedBy(2);
        return twice.compareTo(MIN_RELEASE) < 0 ? MIN_RELEASE : twice;
    }

    private static void requirePositive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("herald.cluster." + name + " must be positive, was " + value);
        }
    }
}
