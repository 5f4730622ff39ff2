package io.herald.adapters.wordpress;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.channels.wordpress.*}: each connection names its site; only the timeouts are
 * Herald's (connect: could not reach, safe to retry; read: outcome unknown).
 */
@ConfigurationProperties("herald.channels.wordpress")
public record WordPressProperties(@DefaultValue("5s") @NotNull Duration connectTimeout,
                                  @DefaultValue("30s") @NotNull Duration readTimeout) {
}
