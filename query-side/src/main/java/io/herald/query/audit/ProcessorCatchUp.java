package io.herald.query.audit;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/** Waits, briefly, for one of this node's processors to reach the events stored when the call came. */
@Component
class ProcessorCatchUp {

    private static final Duration POLL = Duration.ofMillis(20);

    private final EventStoreReader store;
    private final ObjectProvider<EventProcessingConfiguration> processing;

    ProcessorCatchUp(EventStoreReader store, ObjectProvider<EventProcessingConfiguration> processing) {
        this.store = store;
        this.processing = processing;
    }

    /**
     * Waits, at most {@code max}, until the processor has handled every event stored when the call
     * began. Gives up at once when the store's head cannot be read in time or no segment of it runs
     * here (another node's progress is not known here); the caller then answers with what is there.
     */
    void await(String processingGroup, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        Long head = store.head(max);
        if (head == null) {
            return;
        }
        Optional<StreamingEventProcessor> processor = Optional.ofNullable(processing.getIfAvailable())
                .flatMap(p -> p.eventProcessor(processingGroup, StreamingEventProcessor.class));
        if (processor.isEmpty()) {
            return;
        }
        while (System.nanoTime() < deadline) {
            Map<Integer, EventTrackerStatus> segments = processor.get().processingStatus();
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
