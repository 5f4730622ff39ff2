package io.herald.deploy.axon;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.common.DateTimeUtils;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.pooled.PooledStreamingEventProcessor;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.axonframework.springboot.TokenStoreProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Shares the segments of every pooled streaming event processor among the live nodes of a
 * cluster. Axon lets the first node claim every segment and a second node only takes over what a
 * dead node leaves behind; this component makes a node that holds more than its fair share
 * (segments / live nodes, rounded up) give the excess back for a while, so another node claims it.
 *
 * <p>Releasing never loses work: a released segment's token stays where it is, and whichever node
 * claims it next carries on from there. If no other node claims it, this node claims it again once
 * the release ends.
 *
 * <p>Live nodes are the nodes that announced themselves in {@code herald_node} within
 * {@code herald.cluster.node-timeout} (a node that holds no segment yet counts too), together with
 * the owners of the processor's segments whose claims have not expired (a node that does not
 * announce itself still counts). Both use the owner name Axon's token store writes.
 *
 * <p>Against ping-pong: a node releases only what is above its fair share, only once it saw that
 * excess at two balancing steps in a row, at most once per processor per
 * {@code herald.cluster.release-for}, and when nobody took what it released last time it waits
 * twice as long before it tries again (up to 32 times as long).
 */
@Component
@EnableConfigurationProperties(BalancerProperties.class)
public class SegmentBalancer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SegmentBalancer.class);

    /** The backoff after releases nobody took doubles at most this many times. */
    public static final int MAX_BACKOFF_DOUBLINGS = 5;
    /** Rows of nodes not seen for this long are deleted; owner names change with every restart. */
    private static final Duration FORGET_NODES_AFTER = Duration.ofDays(1);

    private final EventProcessingConfiguration processing;
    private final JdbcTemplate jdbc;
    private final BalancerProperties properties;
    private final TokenSchema tokens;
    private final Duration claimTimeout;
    private final String nodeId;
    private final MeterRegistry meters;
    private final Map<String, ProcessorState> states = new ConcurrentHashMap<>();
    private final AtomicInteger liveNodes = new AtomicInteger(-1);
    private volatile ScheduledExecutorService executor;
    private volatile boolean heartbeatFailing;

    public SegmentBalancer(EventProcessingConfiguration processing, JdbcTemplate jdbc, BalancerProperties properties,
                           ObjectProvider<TokenSchema> tokenSchema,
                           ObjectProvider<TokenStoreProperties> tokenStoreProperties,
                           ObjectProvider<MeterRegistry> meters) {
        this.processing = processing;
        this.jdbc = jdbc;
        this.properties = properties;
        this.tokens = tokenSchema.getIfAvailable(TokenSchema::new);
        TokenStoreProperties tokenStore = tokenStoreProperties.getIfAvailable();
        this.claimTimeout = tokenStore == null || tokenStore.getClaimTimeout() == null
                ? Duration.ofSeconds(10) : tokenStore.getClaimTimeout();
        // the owner name Axon's JDBC token store writes unless given another: Spring Boot's
        // auto-configured store is built without one, and Herald does not define its own
        this.nodeId = ManagementFactory.getRuntimeMXBean().getName();
        this.meters = meters.getIfAvailable();
        if (this.meters != null) {
            Gauge.builder("herald.cluster.nodes", liveNodes, n -> n.get() < 0 ? Double.NaN : n.get())
                    .description("live nodes of the cluster, as this node last saw them")
                    .register(this.meters);
        }
    }

    // ---------------------------------------------------------------------------------- lifecycle

    @Override
    public void start() {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "herald-segment-balancer");
            thread.setDaemon(true);
            return thread;
        });
        heartbeat();
        scheduler.scheduleWithFixedDelay(this::heartbeat, properties.heartbeatInterval().toMillis(),
                properties.heartbeatInterval().toMillis(), TimeUnit.MILLISECONDS);
        if (properties.balanceEnabled()) {
            scheduler.scheduleWithFixedDelay(this::balance, properties.balanceInterval().toMillis(),
                    properties.balanceInterval().toMillis(), TimeUnit.MILLISECONDS);
            log.info("segment balancer of node {}: every {}, releases for {}, nodes count for {} after their "
                            + "last heartbeat, claims for {}", nodeId, properties.balanceInterval(),
                    properties.effectiveReleaseFor(), properties.nodeTimeout(), claimTimeout);
        } else {
            log.info("segment balancer of node {} disabled: this node keeps what it claims", nodeId);
        }
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

    /** Starts after the event processors and stops before them (the default phase is the last). */
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
            if (heartbeatFailing) {
                heartbeatFailing = false;
                log.info("node {} announces itself again", nodeId);
            }
        } catch (RuntimeException e) {
            if (!heartbeatFailing) {
                heartbeatFailing = true;
                log.warn("node {} could not announce itself; the others will stop counting it: {}", nodeId,
                        e.toString());
            }
        }
    }

    private Set<String> liveNodes() {
        jdbc.update("DELETE FROM herald_node WHERE seen_at < now() - make_interval(secs => ?)",
                (double) FORGET_NODES_AFTER.toSeconds());
        return new HashSet<>(jdbc.queryForList(
                "SELECT node_id FROM herald_node WHERE seen_at > now() - make_interval(secs => ?)",
                String.class, properties.nodeTimeout().toMillis() / 1000.0));
    }

    // ---------------------------------------------------------------------------------- balancing

    void balance() {
        try {
            balanceOnce(Instant.now());
        } catch (RuntimeException e) {
            // the next interval tries again; an exception here would end the schedule
            log.warn("segment balancing failed, trying again in {}: {}", properties.balanceInterval(), e.toString());
        }
    }

    private void balanceOnce(Instant now) {
        Set<String> nodes = liveNodes();
        liveNodes.set(nodes.size());
        if (!nodes.contains(nodeId)) {
            // this node's own heartbeat is late, so its picture of the cluster may be too
            return;
        }
        Map<String, Map<Integer, String>> ownersByProcessor = liveTokenOwners(now);
        for (EventProcessor processor : processing.eventProcessors().values()) {
            if (processor instanceof PooledStreamingEventProcessor pooled && pooled.isRunning() && !pooled.isError()) {
                Map<Integer, String> owners = ownersByProcessor.get(pooled.getName());
                if (owners != null && !owners.isEmpty()) {
                    balance(pooled, nodes, owners, now);
                }
            }
        }
    }

    private void balance(PooledStreamingEventProcessor processor, Set<String> nodes, Map<Integer, String> owners,
                         Instant now) {
        String name = processor.getName();
        ProcessorState state = states.computeIfAbsent(name, n -> new ProcessorState());
        if (now.isBefore(state.nextStep)) {
            return;
        }
        if (!state.lastReleased.isEmpty()) {
            boolean taken = state.lastReleased.stream()
                    .map(owners::get)
                    .anyMatch(owner -> owner != null && !owner.equals(nodeId));
            state.misses = taken ? 0 : Math.min(state.misses + 1, MAX_BACKOFF_DOUBLINGS);
            if (!taken) {
                log.info("no other node took segments {} of {}; next release not before {} from now",
                        state.lastReleased, name, backoff(properties.effectiveReleaseFor(), state.misses));
            }
            state.lastReleased = List.of();
        }
        Set<String> live = new TreeSet<>(nodes);
        owners.values().stream().filter(Objects::nonNull).forEach(live::add);
        Map<Integer, EventTrackerStatus> held = processor.processingStatus();
        int segments = owners.size();
        int share = fairShare(segments, live.size());
        Set<Integer> merging = new HashSet<>();
        held.forEach((segment, status) -> {
            if (status.isMerging()) {
                merging.add(segment);
            }
        });
        List<Integer> release = chooseReleases(held.keySet(), merging, held.size() - share);
        if (release.isEmpty() || !state.excessSeenBefore) {
            // an excess counts once it is seen twice in a row: a node that just took over a dead
            // node's segments may still see that node's last heartbeat
            state.excessSeenBefore = !release.isEmpty();
            return;
        }
        state.excessSeenBefore = false;
        Duration releaseFor = properties.effectiveReleaseFor();
        for (int segment : release) {
            processor.releaseSegment(segment, releaseFor.toMillis(), TimeUnit.MILLISECONDS);
            log.info("released segment {} of {} for {}: this node held {} of {} segments, {} live nodes {}, "
                    + "fair share {}", segment, name, releaseFor, held.size(), segments, live.size(), live, share);
            if (meters != null) {
                Counter.builder("herald.cluster.segments_released")
                        .description("event processor segments this node gave away to share them with other nodes")
                        .tag("processor", name)
                        .register(meters)
                        .increment();
            }
        }
        state.lastReleased = List.copyOf(release);
        state.nextStep = now.plus(backoff(releaseFor, state.misses));
    }

    /**
     * Per processor, segment to its owner while the owner's claim holds (null: unclaimed, or the
     * claim expired), read from the token store. The timestamps are written with each owner's clock,
     * and compared with this node's, as Axon itself does when it decides whether a claim expired.
     */
    private Map<String, Map<Integer, String>> liveTokenOwners(Instant now) {
        Map<String, Map<Integer, String>> owners = new HashMap<>();
        Instant expired = now.minus(claimTimeout);
        jdbc.query("SELECT " + tokens.processorNameColumn() + ", " + tokens.segmentColumn() + ", "
                + tokens.ownerColumn() + ", " + tokens.timestampColumn() + " FROM " + tokens.tokenTable(), rs -> {
            String owner = rs.getString(3);
            String timestamp = rs.getString(4);
            boolean live = owner != null && timestamp != null && claimedAfter(timestamp, expired);
            owners.computeIfAbsent(rs.getString(1), p -> new HashMap<>()).put(rs.getInt(2), live ? owner : null);
        });
        return owners;
    }

    private static boolean claimedAfter(String timestamp, Instant instant) {
        try {
            return DateTimeUtils.parseInstant(timestamp).isAfter(instant);
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    // ---------------------------------------------------------------------------------- arithmetic

    /** The most segments one of {@code nodes} live nodes should hold: segments / nodes, rounded up. */
    public static int fairShare(int segments, int nodes) {
        if (segments <= 0) {
            return 0;
        }
        if (nodes <= 1) {
            return segments;
        }
        return (segments + nodes - 1) / nodes;
    }

    /**
     * Which of the held segments to give away: {@code excess} of them, the highest numbers first, never
     * one in the middle of a merge. Empty when there is no excess.
     */
    public static List<Integer> chooseReleases(Collection<Integer> held, Set<Integer> merging, int excess) {
        if (excess <= 0) {
            return List.of();
        }
        List<Integer> candidates = new ArrayList<>();
        for (Integer segment : held) {
            if (!merging.contains(segment)) {
                candidates.add(segment);
            }
        }
        candidates.sort(Comparator.reverseOrder());
        return List.copyOf(candidates.subList(0, Math.min(excess, candidates.size())));
    }

    /** The wait before the next release: doubled for each release in a row that no other node took. */
    public static Duration backoff(Duration releaseFor, int misses) {
        return releaseFor.multipliedBy(1L << Math.max(0, Math.min(misses, MAX_BACKOFF_DOUBLINGS)));
    }

    private static final class ProcessorState {
        Instant nextStep = Instant.MIN;
        List<Integer> lastReleased = List.of();
        boolean excessSeenBefore;
        int misses;
    }
}
