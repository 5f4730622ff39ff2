package io.herald.query.audit;

import org.springframework.beans.factory.annotation.Autowired;

import org.springframework.boot.context.properties.EnableConfigurationProperties;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.stereotype.Component;

/**
 * At most {@code herald.audit.max-concurrent-scans} (default 2) exports or verifications of one
 * workspace run at once on this node, so one tenant cannot fill the database pool with scans.
 * The limit is per node: with N nodes behind a balancer a workspace gets at most N times as many.
 * A lock in PostgreSQL would make it cluster-wide, but it would hold a connection for the whole
 * scan, which pages precisely so that it holds none.
 */
@Component
@EnableConfigurationProperties(AuditProperties.class)
public class AuditScanLimiter {

    /** The whole store (the system's export and verification) counts as one more "workspace". */
    static final String WHOLE_STORE = "";

    private final int maxPerWorkspace;
    /** A bulkhead per workspace that refuses at once when full: a scan never waits for a slot. */
    private final BulkheadRegistry bulkheads;

    @Autowired
    public AuditScanLimiter(AuditProperties properties) {
        this(properties.maxConcurrentScans());
    }

    AuditScanLimiter(int maxPerWorkspace) {
        this.maxPerWorkspace = Math.max(1, maxPerWorkspace);
        this.bulkheads = BulkheadRegistry.of(BulkheadConfig.custom()
                .maxConcurrentCalls(this.maxPerWorkspace).maxWaitDuration(Duration.ZERO).build());
    }

    /**
     * A slot for one scan, released when closed.
     *
     * @param workspace null for the whole store
     * @throws TooManyScans when the workspace's slots are all taken
     */
    public Slot acquire(String workspace) {
        String key = workspace == null ? WHOLE_STORE : workspace;
        Bulkhead bulkhead = bulkheads.bulkhead(key.isEmpty() ? "(whole store)" : key);
        if (!bulkhead.tryAcquirePermission()) {
            throw new TooManyScans(maxPerWorkspace);
        }
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                bulkhead.onComplete();
            }
        };
    }

    /** A taken slot; closing it again does nothing. */
    @FunctionalInterface
    public interface Slot extends AutoCloseable {
        @Override
        void close();
    }

    /** The workspace already runs as many scans as allowed. */
    public static final class TooManyScans extends RuntimeException {
        TooManyScans(int max) {
            super("this workspace already runs " + max + " audit exports or verifications; retry when one has finished",
                    null, false, false);
        }
    }
}
