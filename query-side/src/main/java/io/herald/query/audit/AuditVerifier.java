package io.herald.query.audit;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Replays every publication stream (of one workspace, or of the whole store) against rules 1–5,
 * and the operations of each entry at a channel against the update and delete rules.
 */
@Component
public class AuditVerifier {

    private static final Logger log = LoggerFactory.getLogger(AuditVerifier.class);

    private final EventStoreReader store;
    private final Clock clock;

    public AuditVerifier(EventStoreReader store, Clock clock) {
        this.store = store;
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
        log.info("verified {} publications, {} events (workspace {}): {} breaches", totals[0], totals[1],
                workspace == null ? "all" : workspace, breaches.size());
        return new VerificationReport(totals[0], totals[1], List.copyOf(breaches));
    }
}
