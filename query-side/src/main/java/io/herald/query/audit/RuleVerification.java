package io.herald.query.audit;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The verifier's findings kept up to date: what the live processor runs for each batch, and what
 * the verify calls read.
 */
@Component
public class RuleVerification {

    private final EventStoreReader store;
    private final BreachRepository breaches;
    private final ProcessorCatchUp catchUp;
    private final Clock clock;

    RuleVerification(EventStoreReader store, BreachRepository breaches, ProcessorCatchUp catchUp, Clock clock) {
        this.store = store;
        this.breaches = breaches;
        this.catchUp = catchUp;
        this.clock = clock;
    }

    /**
     * Verifies these publications' streams again as they are stored now, and then the entry lines
     * of those that are updates or deletes (rules 8 and 9 look across a line's publications). Runs
     * in the caller's transaction.
     */
    void recheck(Collection<String> publications) {
        save(read(publications));
    }

    /**
     * Stores verdicts made from events already read ({@code verdicts}), with those on the streams of
     * {@code reread} as they are stored now, then verifies the entry lines of the updates and
     * deletes among them again, as {@link #recheck} does. Runs in the caller's transaction.
     */
    void save(List<StreamVerdict> verdicts, Collection<String> reread) {
        List<StreamVerdict> all = new ArrayList<>(verdicts);
        all.addAll(read(reread));
        save(all);
    }

    /** An event of a stored row, as the rules read it. */
    StoredEvent storedEvent(long position, String aggregateId, long sequence, String payloadType, String revision,
                            String timestamp, byte[] payload) {
        return store.forTheRules(position, aggregateId, sequence, payloadType, revision, timestamp, payload);
    }

    /** The verdicts on these publications' streams as they are stored now. */
    private List<StreamVerdict> read(Collection<String> publications) {
        List<StreamVerdict> verdicts = new ArrayList<>();
        if (publications.isEmpty()) {
            return verdicts;
        }
        StreamVerdict.Reading reading = null;
        for (StoredEvent event : store.streams(publications)) {
            if (reading == null || !reading.publicationId().equals(event.aggregateId())) {
                if (reading != null) {
                    verdicts.add(reading.verdict());
                }
                reading = new StreamVerdict.Reading(event.aggregateId());
            }
            reading.accept(event);
        }
        if (reading != null) {
            verdicts.add(reading.verdict());
        }
        return verdicts;
    }

    private void save(List<StreamVerdict> verdicts) {
        if (verdicts.isEmpty()) {
            return;
        }
        breaches.saveStreams(verdicts);
        List<String> lines = verdicts.stream().map(StreamVerdict::entryLine).filter(l -> l != null).distinct().toList();
        if (!lines.isEmpty()) {
            recheckLines(lines);
        }
    }

    /** All the publications of these lines, read in store order, as a full verification reads them. */
    private void recheckLines(List<String> lines) {
        List<String> members = breaches.lineMembers(lines);
        EntryLineCheck check = new EntryLineCheck();
        store.streams(members).stream().sorted(Comparator.comparingLong(StoredEvent::position)).forEach(check::accept);
        List<LocatedBreach> found = check.finish().stream()
                .map(b -> new LocatedBreach(check.workspaceOf(b.publicationId()), b)).toList();
        breaches.replaceLineBreaches(members, found);
    }

    /** The breaches known now of one workspace, or of the whole store (null). */
    public List<Breach> breaches(String workspace) {
        return breaches.find(workspace, clock.instant());
    }

    void clear() {
        breaches.deleteAll();
    }

    /**
     * Waits, at most {@code max}, until this node's verifier has handled every event stored when
     * the call began: a verify call right after an append then sees that append.
     */
    public void awaitCaughtUp(Duration max) {
        catchUp.await(LiveRuleVerifier.PROCESSING_GROUP, max);
    }
}
