package io.herald.query.audit;

import io.herald.platform.projection.StoredEventFold;
import io.herald.platform.projection.StoredEventRow;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Checks the rules as the events arrive: a tracking processor that, for each batch, verifies again
 * the streams of the publications whose events the batch holds, and keeps what it finds in the
 * breach table, in the batch's transaction with its token. So the auditor's verify call reads rows,
 * not the store, and costs the same at any store size.
 *
 * <p>It keeps no copy of the rule state between batches: a stream is a few to a few dozen events,
 * read again in one query for all the batch's publications through the store's stream key, which
 * costs less than keeping and updating a serialized state per publication, and gives exactly what
 * a full verification would (the same checks over the same stored JSON). The appends themselves
 * pay nothing: this runs after them, on its own token.
 */
@Component
@ProcessingGroup(LiveRuleVerifier.PROCESSING_GROUP)
class LiveRuleVerifier implements StoredEventFold {

    static final String PROCESSING_GROUP = "audit-verifier";

    private static final Logger log = LoggerFactory.getLogger(LiveRuleVerifier.class);
    /** The aggregate type of the publication events in the store. */
    private static final String PUBLICATION = "Publication";
    private static final String BATCH = LiveRuleVerifier.class.getName() + ".batch";
    /**
     * Streams a rebuild keeps its reading of between pages, the most recently started ones: a few
     * hundred bytes each. A stream let go is read again from the store, as the live processor does,
     * when the rebuild meets its next event.
     */
    static final int REBUILD_READINGS = 20_000;

    private final RuleVerification verification;

    LiveRuleVerifier(RuleVerification verification) {
        this.verification = verification;
    }

    @EventHandler
    void on(Object payload, DomainEventMessage<?> event) {
        if (!PUBLICATION.equals(event.getType())) {
            return;
        }
        if (!CurrentUnitOfWork.isStarted()) {
            verification.recheck(Set.of(event.getAggregateIdentifier()));
            return;
        }
        UnitOfWork<?> root = CurrentUnitOfWork.get().root();
        Set<String> batch = root.getOrComputeResource(BATCH, key -> {
            Set<String> publications = new LinkedHashSet<>();
            // once per batch, before its transaction and token commit
            root.onPrepareCommit(uow -> verification.recheck(publications));
            return publications;
        });
        batch.add(event.getAggregateIdentifier());
    }

    @Override
    public String processingGroup() {
        return PROCESSING_GROUP;
    }

    @Override
    public Set<String> aggregateTypes() {
        return Set.of(PUBLICATION);
    }

    /**
     * A rebuild checks each stream from the stored events it reads, instead of reading the streams
     * from the store again: it keeps each stream's reading from one page to the next and stores the
     * verdicts once, after the last page (a stream whose reading it lets go, when it holds
     * {@link #REBUILD_READINGS}, at the end of that page), so that every stream's verdict is on the
     * whole stream read. The entry lines of the verdicts stored are checked from the store, as the
     * live processor does.
     */
    @Override
    public Pass begin() {
        return new RebuildPass(verification, REBUILD_READINGS);
    }

    static final class RebuildPass implements Pass {
        /** Verdicts stored in one statement at the end, at most. */
        private static final int SAVED_AT_ONCE = 2_000;

        private final RuleVerification verification;
        private final Map<String, StreamVerdict.Reading> readings;
        /** The verdicts of the streams whose readings were let go during this page. */
        private final Map<String, StreamVerdict> letGo = new LinkedHashMap<>();

        RebuildPass(RuleVerification verification, int kept) {
            this.verification = verification;
            this.readings = new LinkedHashMap<>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, StreamVerdict.Reading> eldest) {
                    if (size() <= kept) {
                        return false;
                    }
                    letGo.put(eldest.getKey(), eldest.getValue().verdict());
                    return true;
                }
            };
        }

        @Override
        public void page(List<StoredEventRow> events) {
            Set<String> reread = new LinkedHashSet<>();
            for (StoredEventRow row : events) {
                String id = row.aggregateId();
                if (!PUBLICATION.equals(row.aggregateType()) || reread.contains(id)) {
                    continue;
                }
                StreamVerdict.Reading reading = readings.get(id);
                long expected = reading == null ? 0 : reading.lastSequence() + 1;
                if (row.sequence() != expected) {
                    // its reading was let go: the stream as stored, read again at the end of the page
                    readings.remove(id);
                    letGo.remove(id);
                    reread.add(id);
                    continue;
                }
                if (reading == null) {
                    reading = new StreamVerdict.Reading(id);
                    readings.put(id, reading);
                }
                reading.accept(verification.storedEvent(row.globalIndex(), id, row.sequence(), row.payloadType(),
                        row.payloadRevision(), row.timestamp(), row.payload()));
            }
            if (!letGo.isEmpty() || !reread.isEmpty()) {
                verification.save(List.copyOf(letGo.values()), reread);
                letGo.clear();
            }
        }

        @Override
        public void finish() {
            List<StreamVerdict> verdicts = readings.values().stream().map(StreamVerdict.Reading::verdict).toList();
            for (int from = 0; from < verdicts.size(); from += SAVED_AT_ONCE) {
                verification.save(verdicts.subList(from, Math.min(verdicts.size(), from + SAVED_AT_ONCE)), List.of());
            }
            readings.clear();
        }

        /** How many streams' readings are kept (for the tests). */
        int kept() {
            return readings.size();
        }
    }

    /** Before a replay from the first event: the replay finds every breach again. */
    @ResetHandler
    void reset() {
        log.info("clearing the verifier's breaches for a replay");
        verification.clear();
    }
}
