package io.herald.platform.data;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.data-dir}: the local data folder (embedded PostgreSQL, the generated keys).
 * Read through {@link DataDirectory#resolve}, also before the application context exists.
 *
 * @param dataDir the folder, relative to the working directory unless absolute
 */
@ConfigurationProperties("herald")
public record DataDirectoryProperties(@DefaultValue("herald-data") Path dataDir) {
}
