package io.herald.command.publishing;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.verification.*}: whether a new connection reads its posts again after success
 * ({@code enabled}; each connection's {@code verifyAfterSuccess} says it for itself), how long after
 * the success ({@code delay}), and how many reads in all an inconclusive verification makes, each
 * {@code delay} after the last ({@code max-tries}), before it gives up and the publication stays as it is.
 */
@ConfigurationProperties("herald.verification")
@Validated
public record VerificationProperties(@DefaultValue("false") boolean enabled,
                                     @DefaultValue("10m") @NotNull Duration delay,
                                     @DefaultValue("3") @Min(1) int maxTries) {
}
