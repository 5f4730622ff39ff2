package io.herald.deploy.axon;

import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.processing.*}: how the pooled streaming event processors work.
 *
 * @param batchSize       events of one segment handled in one transaction
 * @param initialSegments segments per processor when the token store is new (an existing store keeps its own)
 * @param cachedEvents    the newest events the event store keeps in memory for the processors following
 *                        the head of the store; one further behind reads the store itself until it
 *                        caught up again
 * @param batchLinger     how long a segment's batch waits, after the event that starts it, for more events
 *                        to handle in the same transaction (0: none); a batch of events left over from the
 *                        last one starts at once. Every processor but the dispatcher
 * @param dispatchLinger  the same for the dispatcher, whose batches start the attempts: it delays each
 *                        publication's provider call by up to this much
 */
@ConfigurationProperties("herald.processing")
@Validated
public record ProcessingProperties(
        @DefaultValue("100") @Positive int batchSize,
        @DefaultValue("2") @Positive int initialSegments,
        @DefaultValue("1000") @Positive int cachedEvents,
        @DefaultValue("50ms") Duration batchLinger,
        @DefaultValue("0ms") Duration dispatchLinger) {
}
