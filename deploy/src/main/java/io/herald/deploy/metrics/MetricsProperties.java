package io.herald.deploy.metrics;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.metrics.*}.
 *
 * @param refreshInterval how often the publication and processor gauges are counted
 */
@ConfigurationProperties("herald.metrics")
@Validated
public record MetricsProperties(@DefaultValue("15s") @NotNull Duration refreshInterval) {
}
