package io.herald.deploy.embedded;

import java.nio.file.Path;
import org.springframework.core.env.Environment;

/** Herald's local data folder ({@code herald.data-dir}, default {@code ./herald-data}). */
public final class DataDirectory {

    private DataDirectory() {
    }

    public static Path resolve(Environment environment) {
        return Path.of(environment.getProperty("herald.data-dir", "herald-data")).toAbsolutePath().normalize();
    }

    public static boolean embeddedDatabase(Environment environment) {
        String url = environment.getProperty("spring.datasource.url");
        return url == null || url.isBlank();
    }
}
