package io.herald.deploy.embedded;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.embedded-postgres.*}.
 *
 * @param port the embedded PostgreSQL's port on 127.0.0.1; 0: a free one
 */
@ConfigurationProperties("herald.embedded-postgres")
@Validated
public record EmbeddedPostgresProperties(@DefaultValue("0") @Min(0) @Max(65535) int port) {
}
