package io.herald.command.publishing;

import io.herald.command.publishing.PublicationTimers.Kind;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.AttemptTrigger;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.stereotype.Component;

/**
 * The timer rows a batch of events changes, written together when the batch's unit of work
 * prepares its commit: two statements a batch (one upsert, one delete) instead of one an event.
 * Every write replaces a publication's row whole, so the last one of the batch is the row's state;
 * the rows still commit or roll back with the events, in the same transaction.
 */
@Component
public class TimerBatch {

    /** What a batch leaves in a publication's row: a due time (relative or absolute), or no row. */
    public record Write(Kind kind, int attemptNo, AttemptTrigger trigger, int readNo, Duration in, Instant at) {
        static final Write CLEAR = new Write(null, 0, null, 0, null, null);

        boolean clears() {
            return kind == null;
        }
    }

    private static final String RESOURCE = TimerBatch.class.getName();

    private final PublicationTimers timers;

    TimerBatch(PublicationTimers timers) {
        this.timers = timers;
    }

    public void setIn(PublicationId id, Kind kind, int attemptNo, AttemptTrigger trigger, int readNo, Duration in) {
        put(id, new Write(kind, attemptNo, trigger, readNo, in, null));
    }

    public void setAt(PublicationId id, Kind kind, int attemptNo, AttemptTrigger trigger, Instant at) {
        put(id, new Write(kind, attemptNo, trigger, 0, null, at));
    }

    public void clear(PublicationId id) {
        put(id, Write.CLEAR);
    }

    /** Writes what the batch holds so far: for a write of another kind that must come after them. */
    public void flush() {
        if (CurrentUnitOfWork.isStarted()) {
            write(CurrentUnitOfWork.get());
        }
    }

    private void write(UnitOfWork<?> unitOfWork) {
        Map<PublicationId, Write> pending = unitOfWork.getResource(RESOURCE);
        if (pending != null && !pending.isEmpty()) {
            timers.writeAll(Map.copyOf(pending));
            pending.clear();
        }
    }

    private void put(PublicationId id, Write write) {
        if (!CurrentUnitOfWork.isStarted()) {
            timers.writeAll(Map.of(id, write));
            return;
        }
        UnitOfWork<?> unitOfWork = CurrentUnitOfWork.get();
        Map<PublicationId, Write> pending = unitOfWork.getOrComputeResource(RESOURCE, key -> {
            unitOfWork.onPrepareCommit(this::write);
            return new LinkedHashMap<>();
        });
        pending.put(id, write);
    }
}
