package io.herald.query.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The live verifier's watch on the audit chain: run every {@code herald.audit.chain-check-interval}
 * (one node at a time), it checks the store as it is now against the newest segment of the chain
 * (its last {@code herald.audit.chain-check-window} rows), the next as many older rows in turn (so
 * every row is checked again, a window at a time, over and over), and each workspace's newest
 * checkpoint: its chain row must still hold the signed hash, its event must still be stored, and
 * its signature must hold when this node's key made it. What it finds goes to the breach table as
 * chain breaks (rule {@value Breach#CHAIN_BREAK}), where {@code GET …/audit/verify} lists them next
 * to the rule breaches. Each check reads at most two windows (and, in one statement per window,
 * the hash before it of each workspace in it) and one checkpoint per workspace, whatever the
 * store's size; the full re-verification checks every row at once.
 */
@Component
public class ChainWatch {

    private static final Logger log = LoggerFactory.getLogger(ChainWatch.class);

    private final EventStoreReader store;
    private final AuditChainRepository chain;
    private final BreachRepository breaches;
    private final AuditKeys keys;
    private final ObjectMapper json;
    private final int window;
    /** The chain position the turn through older rows has reached on this node. */
    private long sweptThrough;

    ChainWatch(EventStoreReader store, AuditChainRepository chain, BreachRepository breaches, AuditKeys keys,
               ObjectMapper objectMapper, AuditProperties properties) {
        this.store = store;
        this.chain = chain;
        this.breaches = breaches;
        this.keys = keys;
        this.json = objectMapper;
        this.window = properties.chainCheckWindow();
    }

    /**
     * Checks the newest segment, the next older one and the newest checkpoints, and stores the
     * chain breaks found.
     *
     * @return the chain breaks found (those stored before included)
     */
    public synchronized List<Breach> check() {
        long last = chain.lastChainOrder();
        long newestFrom = Math.max(0, last - window);
        List<LocatedBreach> found = new ArrayList<>(segment(newestFrom, last));
        if (sweptThrough >= newestFrom) {
            sweptThrough = 0;
        }
        long sweepTo = Math.min(sweptThrough + window, newestFrom);
        found.addAll(segment(sweptThrough, sweepTo));
        sweptThrough = sweepTo;
        found.addAll(checkpoints());
        breaches.insert(found);
        if (!found.isEmpty()) {
            log.warn("the audit chain check found {} chain breaks; GET …/audit/verify lists them", found.size());
        }
        return found.stream().map(LocatedBreach::breach).toList();
    }

    /** The chain rows in ({@code after}, {@code through}] against the store. */
    private List<LocatedBreach> segment(long after, long through) {
        if (through <= after) {
            return List.of();
        }
        Map<String, String> before = chain.hashesBefore(after, through);
        ChainCheck check = new ChainCheck(json, workspace -> before.getOrDefault(workspace, AuditChain.ORIGIN));
        store.forEachLink(after, through, check::accept);
        return check.breaches();
    }

    private List<LocatedBreach> checkpoints() {
        return ChainCheck.checkpoints(chain.newestCheckpoints(), keys.signer().orElse(null));
    }
}
