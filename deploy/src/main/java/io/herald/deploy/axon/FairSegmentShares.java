package io.herald.deploy.axon;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.herald.platform.threads.BackgroundThreads;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.eventhandling.pooled.MaxSegmentProvider;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Each pooled streaming processor may hold its fair share of segments: segments / live nodes,
 * rounded up. Axon asks for that limit ({@link MaxSegmentProvider}) on every coordination step,
 * releases what a node holds above it and claims no more; the node that joins claims the rest.
 *
 * <p>Live nodes are those that announced themselves in {@code herald_node} within
 * {@code herald.cluster.node-timeout}, so a node that holds no segment yet counts too. Each node
 * announces itself every {@code herald.cluster.heartbeat-interval} and then counts the live nodes
 * and every processor's segments (rows in the token store); the limit is computed from those
 * counts, never from a query on Axon's coordinator thread.
 */
@Component
@EnableConfigurationProperties(ClusterProperties.class)
public class FairSegmentShares implements MaxSegmentProvider, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(FairSegmentShares.class);
    /** Rows of nodes not seen for this long are deleted; owner names change with every restart. */
    private static final Duration FORGET_NODES_AFTER = Duration.ofDays(1);
    /** What Axon allows without a provider: as many segments as there are. */
    private static final int UNLIMITED = Short.MAX_VALUE;

    private final JdbcTemplate jdbc;
    private final ClusterProperties properties;
    private final TokenSchema tokens;
    private final String nodeId;
    private final AtomicInteger liveNodes = new AtomicInteger(-1);
    private volatile Map<String, Integer> segmentsByProcessor = Map.of();
    private volatile ScheduledExecutorService executor;
    private volatile boolean heartbeatFailing;

    public FairSegmentShares(JdbcTemplate jdbc, ClusterProperties properties, ObjectProvider<TokenSchema> tokenSchema,
                             ObjectProvider<MeterRegistry> meters) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.tokens = tokenSchema.getIfAvailable(TokenSchema::new);
        // the owner name Axon's JDBC token store writes unless given another
        this.nodeId = ManagementFactory.getRuntimeMXBean().getName();
        MeterRegistry registry = meters.getIfAvailable();
        if (registry != null) {
            Gauge.builder("herald.cluster.nodes", liveNodes, n -> n.get() < 0 ? Double.NaN : n.get())
                    .description("live nodes of the cluster, as this node last saw them")
                    .register(registry);
        }
    }

    @Override
    public int getMaxSegments(String processorName) {
        Integer segments = segmentsByProcessor.get(processorName);
        if (!properties.balanceEnabled() || segments == null) {
            // a processor whose tokens are not counted yet claims as Axon does by itself
            return UNLIMITED;
        }
        return fairShare(segments, liveNodes.get());
    }

    /** The most segments one of {@code nodes} live nodes should hold: segments / nodes, rounded up, at least 1. */
    public static int fairShare(int segments, int nodes) {
        if (segments <= 1 || nodes <= 1) {
            return Math.max(segments, 1);
        }
        return (segments + nodes - 1) / nodes;
    }

    // ---------------------------------------------------------------------------------- lifecycle

    @Override
    public void start() {
        ScheduledExecutorService scheduler =
                Executors.newSingleThreadScheduledExecutor(BackgroundThreads.named("herald-cluster-heartbeat"));
        heartbeat();
        long every = properties.heartbeatInterval().toMillis();
        scheduler.scheduleWithFixedDelay(this::heartbeat, every, every, TimeUnit.MILLISECONDS);
        log.info("node {} shares segments {}: heartbeat every {}, nodes count for {} after their last heartbeat",
                nodeId, properties.balanceEnabled() ? "fairly" : "not at all (balancing disabled)",
                properties.heartbeatInterval(), properties.nodeTimeout());
        executor = scheduler;
    }

    @Override
    public void stop() {
        ScheduledExecutorService scheduler = executor;
        executor = null;
        if (scheduler == null) {
            return;
        }
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            // the others stop counting this node at once instead of after the node timeout
            jdbc.update("DELETE FROM herald_node WHERE node_id = ?", nodeId);
        } catch (RuntimeException e) {
            log.debug("could not remove node {} from herald_node", nodeId, e);
        }
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }

    /** Starts before the event processors' claims matter and stops before them (the default phase is the last). */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }

    // ---------------------------------------------------------------------------------- heartbeat

    void heartbeat() {
        try {
            jdbc.update("""
                    INSERT INTO herald_node (node_id, seen_at) VALUES (?, now())
                    ON CONFLICT (node_id) DO UPDATE SET seen_at = excluded.seen_at""", nodeId);
            jdbc.update("DELETE FROM herald_node WHERE seen_at < now() - make_interval(secs => ?)",
                    (double) FORGET_NODES_AFTER.toSeconds());
            Integer nodes = jdbc.queryForObject(
                    "SELECT count(*) FROM herald_node WHERE seen_at > now() - make_interval(secs => ?)",
                    Integer.class, properties.nodeTimeout().toMillis() / 1000.0);
            liveNodes.set(Math.max(nodes == null ? 0 : nodes, 1));
            Map<String, Integer> segments = new HashMap<>();
            jdbc.query("SELECT " + tokens.processorNameColumn() + ", count(*) FROM " + tokens.tokenTable()
                    + " GROUP BY " + tokens.processorNameColumn(), rs -> {
                segments.put(rs.getString(1), rs.getInt(2));
            });
            segmentsByProcessor = Map.copyOf(segments);
            if (heartbeatFailing) {
                heartbeatFailing = false;
                log.info("node {} announces itself again", nodeId);
            }
        } catch (RuntimeException e) {
            // the last counts stay: a node that cannot reach the database cannot claim either
            if (!heartbeatFailing) {
                heartbeatFailing = true;
                log.warn("node {} could not announce itself; the others will stop counting it: {}", nodeId,
                        e.toString());
            }
        }
    }
}
