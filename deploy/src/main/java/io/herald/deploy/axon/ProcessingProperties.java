package io.herald.deploy.axon;

import jakarta.validation.constraints.Positive;
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
 */
@ConfigurationProperties("herald.processing")
@Validated
public record ProcessingProperties(
        @DefaultValue("100") @Positive int batchSize,
        @DefaultValue("2") @Positive int initialSegments,
        @DefaultValue("1000") @Positive int cachedEvents) {
}
