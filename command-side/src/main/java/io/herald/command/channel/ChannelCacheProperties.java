package io.herald.command.channel;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.channels.cache-ttl}: how long a node keeps a channel connection's row (credentials
 * still encrypted) for intake and attempts; a connection reconfigured on another node is used here
 * within it. (The providers' own {@code herald.channels.*} keys are the adapters'.)
 *
 * @param cacheTtl how long a read connection row is kept
 */
@ConfigurationProperties("herald.channels")
@Validated
public record ChannelCacheProperties(@DefaultValue("2s") @NotNull Duration cacheTtl) {
}
