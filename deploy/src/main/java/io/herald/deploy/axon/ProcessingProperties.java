package io.herald.deploy.axon;

import jakarta.validation.constraints.NotNull;
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
 * @param headReadSpacing the least time between two reads of the store by the event store's reader
 *                        that feeds the processors at the head: while events keep coming, each read
 *                        takes what the commits of that time wrote (without it, there was a read
 *                        for every two or three commits); a read later than that after the last is
 *                        not held back (0: no spacing)
 */
@ConfigurationProperties("herald.processing")
@Validated
public record ProcessingProperties(
        @DefaultValue("100") @Positive int batchSize,
        @DefaultValue("2") @Positive int initialSegments,
        @DefaultValue("1000") @Positive int cachedEvents,
        @DefaultValue("10ms") @NotNull Duration headReadSpacing) {
}
