package io.herald.deploy.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.Environment;

/** Herald's local data folder ({@code herald.data-dir}, default {@code ./herald-data}). */
public final class DataDirectory {

    private static final Logger log = LoggerFactory.getLogger(DataDirectory.class);
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private DataDirectory() {
    }

    public static Path resolve(Environment environment) {
        return Path.of(environment.getProperty("herald.data-dir", "herald-data")).toAbsolutePath().normalize();
    }

    public static boolean embeddedDatabase(Environment environment) {
        String url = environment.getProperty("spring.datasource.url");
        return url == null || url.isBlank();
    }

    /** Creates the folder (and its parents) if missing; a folder created here is the owner's alone. */
    public static void create(Path directory) throws IOException {
        if (Files.isDirectory(directory)) {
            return;
        }
        if (POSIX) {
            Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectories(directory);
        }
    }

    /**
     * Writes a new file that only its owner may read (mode 0600 where the file system has POSIX
     * permissions). The mode is set as the file is created, so the secret is never readable by
     * others, not even between creating and restricting it. Refuses to overwrite a file.
     */
    public static void writeSecret(Path file, String content) throws IOException {
        create(file.toAbsolutePath().getParent());
        if (POSIX) {
            FileAttribute<?> ownerOnly = PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rw-------"));
            Files.createFile(file, ownerOnly);
        } else {
            log.warn("cannot restrict permissions of {}: the file system has no POSIX permissions", file);
            Files.createFile(file);
        }
        Files.writeString(file, content, StandardCharsets.UTF_8, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }
}
