package io.herald.deploy.axon;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.command.*}: the publications a node keeps in memory between commands.
 *
 * @param aggregateCacheSize publications kept at most (about 2 KB each with a short post, more with a
 *                           long text: its content is kept)
 * @param aggregateCacheIdle a publication unused this long is dropped
 */
@ConfigurationProperties("herald.command")
@Validated
public record AggregateCacheProperties(
        @DefaultValue("20000") @Positive long aggregateCacheSize,
        @DefaultValue("10m") @NotNull Duration aggregateCacheIdle) {
}
