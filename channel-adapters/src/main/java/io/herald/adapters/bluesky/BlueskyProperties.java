package io.herald.adapters.bluesky;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.channels.bluesky.*}: each connection names its PDS ({@code pdsUrl}); only the
 * timeouts are Herald's (connect: could not reach, safe to retry; read: outcome unknown).
 */
@ConfigurationProperties("herald.channels.bluesky")
public record BlueskyProperties(@DefaultValue("5s") @NotNull Duration connectTimeout,
                                @DefaultValue("30s") @NotNull Duration readTimeout) {
}
