package io.herald.deploy.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * How far each event processor is behind the event store, per processor, measured by
 * {@link GaugeRefresher} (the head of the store is a query): {@code herald.processor.lag_events}
 * (events between the head of the store and the slowest segment this node holds; 0 when it holds
 * none) and {@code herald.processor.segments} (segments this node holds). Axon's own per-message
 * monitors measure more but cost about a tenth of the processing CPU, so they are off unless
 * {@code axon.metrics.auto-configuration.enabled=true}.
 */
@Component
public class ProcessorLagMetrics implements SmartInitializingSingleton, RefreshedGauges {

    private final EventProcessingConfiguration processing;
    private final EventStore events;
    private final MeterRegistry registry;
    private final Map<String, Measured> measured = new ConcurrentHashMap<>();

    public ProcessorLagMetrics(EventProcessingConfiguration processing, EventStore events, MeterRegistry registry) {
        this.processing = processing;
        this.events = events;
        this.registry = registry;
    }

    /** The last measurement of one processor; NaN until the first. */
    private static final class Measured {
        volatile double lag = Double.NaN;
        volatile double segments = Double.NaN;
    }

    @Override
    public void afterSingletonsInstantiated() {
        processing.eventProcessors().forEach((name, processor) -> {
            if (processor instanceof StreamingEventProcessor) {
                Measured values = measured.computeIfAbsent(name, n -> new Measured());
                Gauge.builder("herald.processor.lag_events", values, v -> v.lag)
                        .tag("processor", name)
                        .description("events between the head of the store and this node's slowest segment")
                        .register(registry);
                Gauge.builder("herald.processor.segments", values, v -> v.segments)
                        .tag("processor", name)
                        .description("segments of the processor this node holds")
                        .register(registry);
            }
        });
    }

    @Override
    public void refresh() {
        TrackingToken headToken = events.createHeadToken();
        long head = headToken == null ? 0 : headToken.position().orElse(0);
        processing.eventProcessors().forEach((name, processor) -> {
            Measured values = measured.get(name);
            if (values != null && processor instanceof StreamingEventProcessor streaming) {
                Map<Integer, EventTrackerStatus> segments = streaming.processingStatus();
                values.segments = segments.size();
                values.lag = lag(head, segments);
            }
        });
    }

    private static double lag(long head, Map<Integer, EventTrackerStatus> segments) {
        if (segments.isEmpty()) {
            return 0;
        }
        long slowest = Long.MAX_VALUE;
        for (EventTrackerStatus status : segments.values()) {
            slowest = Math.min(slowest, status.getCurrentPosition().orElse(0));
        }
        return Math.max(0, head - slowest);
    }
}
