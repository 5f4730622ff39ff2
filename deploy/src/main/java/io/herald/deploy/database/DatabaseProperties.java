package io.herald.deploy.database;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.database.*}: how Herald notices a database that stopped answering.
 *
 * @param checkTimeout  how long one check of the database (a readiness probe's, the watch's) waits
 *                      for its answer before it counts as "no"
 * @param checkInterval how often the database is checked in the background
 */
@ConfigurationProperties("herald.database")
@Validated
public record DatabaseProperties(@DefaultValue("1s") @NotNull Duration checkTimeout,
                                 @DefaultValue("1s") @NotNull Duration checkInterval) {
}
