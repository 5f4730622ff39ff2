package io.herald.command.channel;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.channels.cache-ttl}: how long a node keeps a channel connection's row (credentials
 * still encrypted) for intake and attempts; a connection reconfigured on another node is used here
 * within it. {@code herald.channels.max-concurrent-checks}: how many checks of a new or changed
 * connection with its provider run at once on a node (one per workspace; {@link ConnectionCheckSlots}).
 * (The providers' own {@code herald.channels.*} keys are the adapters'.)
 *
 * @param cacheTtl            how long a read connection row is kept
 * @param maxConcurrentChecks connection checks with providers at once on a node
 */
@ConfigurationProperties("herald.channels")
@Validated
public record ChannelCacheProperties(@DefaultValue("2s") @NotNull Duration cacheTtl,
                                     @DefaultValue("4") @Min(1) int maxConcurrentChecks) {
}
