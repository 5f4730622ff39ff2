package io.herald.query.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Replays every publication stream (of one workspace, or of the whole store) against rules 1–5,
 * and the operations of each entry at a channel against the update and delete rules; then checks
 * the whole audit chain against the store and each workspace's newest checkpoint against the chain
 * ({@link ChainCheck}, as the live verifier and the full re-verification do), so a restored or
 * edited store shows its chain breaks (rule {@value Breach#CHAIN_BREAK}) too.
 */
@Component
public class AuditVerifier {

    private static final Logger log = LoggerFactory.getLogger(AuditVerifier.class);

    private final EventStoreReader store;
    private final AuditChainRepository chain;
    private final ObjectMapper json;
    private final Clock clock;

    public AuditVerifier(EventStoreReader store, AuditChainRepository chain, ObjectMapper objectMapper, Clock clock) {
        this.store = store;
        this.chain = chain;
        this.json = objectMapper;
        this.clock = clock;
    }

    /** @param workspace null for the whole store */
    public VerificationReport verify(String workspace) {
        List<Breach> breaches = new ArrayList<>();
        long[] totals = new long[2];
        PublicationStreamCheck[] current = new PublicationStreamCheck[1];
        EntryLineCheck lines = new EntryLineCheck();
        store.forEachPublicationStream(workspace, event -> {
            lines.accept(event);
            if (current[0] == null || !current[0].publicationId().equals(event.aggregateId())) {
                if (current[0] != null) {
                    breaches.addAll(current[0].finish(clock.instant()));
                }
                current[0] = new PublicationStreamCheck(event.aggregateId());
                totals[0]++;
            }
            current[0].accept(event.sequence(), event.type(), event.payload());
            totals[1]++;
        });
        if (current[0] != null) {
            breaches.addAll(current[0].finish(clock.instant()));
        }
        breaches.addAll(lines.finish());
        breaches.addAll(chainBreaks(workspace));
        log.info("verified {} publications, {} events (workspace {}): {} breaches", totals[0], totals[1],
                workspace == null ? "all" : workspace, breaches.size());
        return new VerificationReport(totals[0], totals[1], List.copyOf(breaches));
    }

    /**
     * The whole chain from its first row, and the newest checkpoints, against the store as it is
     * now; the signatures are not checked here (no key is configured for this check: the check of
     * an export against the public key you kept does that).
     */
    private List<Breach> chainBreaks(String workspace) {
        ChainCheck check = new ChainCheck(json, ws -> AuditChain.ORIGIN);
        store.forEachLink(0, Long.MAX_VALUE, check::accept);
        List<LocatedBreach> found = new ArrayList<>(check.breaches());
        found.addAll(ChainCheck.checkpoints(chain.newestCheckpoints(), null));
        return found.stream().filter(b -> workspace == null || workspace.equals(b.workspaceId()))
                .map(LocatedBreach::breach).toList();
    }
}
