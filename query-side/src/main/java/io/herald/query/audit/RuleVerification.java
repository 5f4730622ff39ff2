package io.herald.query.audit;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * The verifier's findings kept up to date: what the live processor runs for each batch, and what
 * the verify calls read.
 */
@Component
public class RuleVerification {

    private static final Duration POLL = Duration.ofMillis(20);

    private final EventStoreReader store;
    private final BreachRepository breaches;
    private final ObjectProvider<EventProcessingConfiguration> processing;
    private final Clock clock;

    RuleVerification(EventStoreReader store, BreachRepository breaches,
                     ObjectProvider<EventProcessingConfiguration> processing, Clock clock) {
        this.store = store;
        this.breaches = breaches;
        this.processing = processing;
        this.clock = clock;
    }

    /**
     * Verifies these publications' streams again as they are stored now, and then the entry lines
     * of those that are updates or deletes (rules 8 and 9 look across a line's publications). Runs
     * in the caller's transaction.
     */
    void recheck(Collection<String> publications) {
        if (publications.isEmpty()) {
            return;
        }
        List<StreamVerdict> verdicts = new ArrayList<>();
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
     * the call began: a verify call right after an append then sees that append. Gives up at once
     * when the store's head cannot be read in time or no segment of the verifier runs here (another
     * node's progress is not known here); what is answered then is as of the verifier's position.
     */
    public void awaitCaughtUp(Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        Long head = store.head(max);
        if (head == null) {
            return;
        }
        Optional<StreamingEventProcessor> verifier = Optional.ofNullable(processing.getIfAvailable())
                .flatMap(p -> p.eventProcessor(LiveRuleVerifier.PROCESSING_GROUP, StreamingEventProcessor.class));
        if (verifier.isEmpty()) {
            return;
        }
        while (System.nanoTime() < deadline) {
            Map<Integer, EventTrackerStatus> segments = verifier.get().processingStatus();
            if (segments.isEmpty() || segments.values().stream().allMatch(s -> reached(s, head))) {
                return;
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static boolean reached(EventTrackerStatus segment, long head) {
        return segment.isErrorState() || segment.getCurrentPosition().orElse(-1) >= head;
    }
}
