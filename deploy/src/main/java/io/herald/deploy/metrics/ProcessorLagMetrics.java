package io.herald.deploy.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * How far each event processor is behind the event store, per processor, read when scraped:
 * {@code herald.processor.lag_events} (events between the head of the store and the slowest
 * segment this node holds; 0 when it holds none) and {@code herald.processor.segments} (segments
 * this node holds). Axon's own per-message monitors measure more but cost about a tenth of the
 * processing CPU, so they are off unless {@code axon.metrics.auto-configuration.enabled=true}.
 */
@Component
public class ProcessorLagMetrics implements SmartInitializingSingleton {

    private final EventProcessingConfiguration processing;
    private final EventStore events;
    private final MeterRegistry registry;

    public ProcessorLagMetrics(EventProcessingConfiguration processing, EventStore events, MeterRegistry registry) {
        this.processing = processing;
        this.events = events;
        this.registry = registry;
    }

    @Override
    public void afterSingletonsInstantiated() {
        processing.eventProcessors().forEach((name, processor) -> {
            if (processor instanceof StreamingEventProcessor streaming) {
                Gauge.builder("herald.processor.lag_events", streaming, this::lag)
                        .tag("processor", name)
                        .description("events between the head of the store and this node's slowest segment")
                        .register(registry);
                Gauge.builder("herald.processor.segments", streaming, p -> p.processingStatus().size())
                        .tag("processor", name)
                        .description("segments of the processor this node holds")
                        .register(registry);
            }
        });
    }

    private double lag(StreamingEventProcessor processor) {
        Map<Integer, EventTrackerStatus> segments = processor.processingStatus();
        if (segments.isEmpty()) {
            return 0;
        }
        TrackingToken headToken = events.createHeadToken();
        long head = headToken == null ? 0 : headToken.position().orElse(0);
        long slowest = Long.MAX_VALUE;
        for (EventTrackerStatus status : segments.values()) {
            slowest = Math.min(slowest, status.getCurrentPosition().orElse(0));
        }
        return Math.max(0, head - slowest);
    }
}
