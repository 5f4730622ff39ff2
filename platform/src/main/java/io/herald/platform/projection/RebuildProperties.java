package io.herald.platform.projection;

import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.rebuild.*}.
 *
 * @param pageSize stored events a projection rebuild reads and writes per batch
 */
@ConfigurationProperties("herald.rebuild")
@Validated
public record RebuildProperties(
        @DefaultValue("2000") @Positive int pageSize) {
}
