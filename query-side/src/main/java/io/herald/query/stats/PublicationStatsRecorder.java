package io.herald.query.stats;

import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.PublicationView;
import io.herald.contracts.publication.PublicationView.Attempt;
import io.herald.contracts.publication.PublicationView.AttemptOutcome;
import io.herald.query.publication.PublicationTransitionListener;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.axonframework.eventhandling.EventMessage;
import io.herald.platform.projection.RebuildScope;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.stereotype.Component;

/**
 * Counts each change of the publication view into the overview's hour buckets, in the view's own
 * transaction: a redelivered event (ignored by the view) counts nothing, and a rebuild of the
 * view empties the buckets first and counts the history again. A batch's counts are added up in
 * memory and written as one upsert per table when the batch commits.
 */
@Component
public class PublicationStatsRecorder implements PublicationTransitionListener {

    /** Statuses the overview charts per hour; by name, so a status added later needs no change here. */
    static final Set<String> OUTCOMES = Set.of("SUCCEEDED", "FAILED", "OUTCOME_UNKNOWN", "HELD");
    static final String CASE_OPENED = "CASE_OPENED";
    static final String CASE_CLOSED = "CASE_CLOSED";

    /** Count rows a rebuild gathers before it adds them, at most. */
    static final int REBUILD_KEYS = 50_000;

    private final PublicationStatsRepository repository;

    public PublicationStatsRecorder(PublicationStatsRepository repository) {
        this.repository = repository;
    }

    @Override
    public void transitioned(PublicationView before, PublicationView after, long sequence) {
        Counts counts = new Counts();
        Instant hour = hourOf(after.updatedAt());
        String status = after.status().name();
        if (after.status() != before.status() && OUTCOMES.contains(status)) {
            counts.outcome(after.workspaceId().value(), hour, status);
        }
        if (after.needsDecision() != before.needsDecision()) {
            counts.outcome(after.workspaceId().value(), hour, after.needsDecision() ? CASE_OPENED : CASE_CLOSED);
        }
        Duration traced = tracedAnswerTime();
        for (Attempt attempt : after.attempts()) {
            Duration answerTime = newAnswerTime(before, attempt);
            if (answerTime != null && traced != null) {
                answerTime = traced;
            }
            if (answerTime != null) {
                counts.answer(after.workspaceId().value(), after.channelId().value(), hourOf(attempt.finishedAt()),
                        AnswerTimeHistogram.bucketOf(answerTime));
            }
        }
        if (counts.isEmpty()) {
            return;
        }
        Counts pending = pending();
        if (pending == null) {
            repository.add(counts.outcomes, counts.answers);
        } else {
            pending.addAll(counts);
        }
    }

    @Override
    public void reset() {
        repository.deleteAll();
    }

    /**
     * How long the provider took to answer an attempt that this change finished; null when the
     * change finished none, or no answer came back (a timeout is not an answer time).
     */
    static Duration newAnswerTime(PublicationView before, Attempt attempt) {
        if (attempt.outcome() == AttemptOutcome.IN_FLIGHT || Boolean.FALSE.equals(attempt.responseReceived())
                || attempt.startedAt() == null || attempt.finishedAt() == null
                || attempt.finishedAt().isBefore(attempt.startedAt())) {
            return null;
        }
        for (Attempt earlier : before.attempts()) {
            if (earlier.attemptNo() == attempt.attemptNo() && earlier.outcome() != AttemptOutcome.IN_FLIGHT) {
                return null;
            }
        }
        return Duration.between(attempt.startedAt(), attempt.finishedAt());
    }

    /**
     * The call's own duration where the event being applied carries its trace: that is the
     * provider's answer time, without the wait between starting the attempt and sending.
     */
    private static Duration tracedAnswerTime() {
        if (!CurrentUnitOfWork.isStarted()
                || !(CurrentUnitOfWork.get().getMessage() instanceof EventMessage<?> message)) {
            return null;
        }
        Object event = message.getPayload();
        AttemptTrace trace = null;
        if (event instanceof PublicationSucceededEvent succeeded) {
            trace = succeeded.trace();
        } else if (event instanceof PublicationFailedEvent failed) {
            trace = failed.trace();
        } else if (event instanceof PublicationOutcomeUnknownEvent unknown) {
            trace = unknown.trace();
        }
        return trace != null && trace.responseReceived() ? Duration.ofMillis(trace.durationMillis()) : null;
    }

    static Instant hourOf(Instant at) {
        return at.truncatedTo(ChronoUnit.HOURS);
    }

    /**
     * The counts gathered for the batch's transaction; in a rebuild, for the whole rebuild, added
     * once after its last page (or at the end of a page once they have {@link #REBUILD_KEYS} rows),
     * not once a page.
     */
    private Counts pending() {
        if (!CurrentUnitOfWork.isStarted()) {
            return null;
        }
        UnitOfWork<?> root = CurrentUnitOfWork.get().root();
        RebuildScope rebuild = RebuildScope.of(root);
        if (rebuild != null) {
            Counts counts = rebuild.resource(Counts.KEY, () -> {
                Counts kept = new Counts();
                rebuild.atEnd(() -> kept.writeTo(repository));
                return kept;
            });
            if (root.getResource(Counts.KEY) == null) {
                root.resources().put(Counts.KEY, counts);
                root.onPrepareCommit(uow -> {
                    if (counts.outcomes.size() + counts.answers.size() > REBUILD_KEYS) {
                        counts.writeTo(repository);
                    }
                });
            }
            return counts;
        }
        return root.getOrComputeResource(Counts.KEY, key -> {
            Counts counts = new Counts();
            root.onPrepareCommit(uow -> repository.add(counts.outcomes, counts.answers));
            return counts;
        });
    }

    /** Counts to add, keyed by the row they go to. */
    static final class Counts {
        static final String KEY = Counts.class.getName();
        final Map<PublicationStatsRepository.HourKey, Long> outcomes = new LinkedHashMap<>();
        final Map<PublicationStatsRepository.AnswerKey, Long> answers = new LinkedHashMap<>();

        void outcome(String workspace, Instant hour, String kind) {
            outcomes.merge(new PublicationStatsRepository.HourKey(workspace, hour, kind), 1L, Long::sum);
        }

        void answer(String workspace, String channel, Instant hour, int bucket) {
            answers.merge(new PublicationStatsRepository.AnswerKey(workspace, channel, hour, bucket), 1L, Long::sum);
        }

        void addAll(Counts other) {
            other.outcomes.forEach((k, n) -> outcomes.merge(k, n, Long::sum));
            other.answers.forEach((k, n) -> answers.merge(k, n, Long::sum));
        }

        /** Adds them and forgets them. */
        void writeTo(PublicationStatsRepository repository) {
            if (!isEmpty()) {
                repository.add(outcomes, answers);
            }
            outcomes.clear();
            answers.clear();
        }

        boolean isEmpty() {
            return outcomes.isEmpty() && answers.isEmpty();
        }
    }
}
