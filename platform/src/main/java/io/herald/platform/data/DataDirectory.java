package io.herald.platform.data;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/** Herald's local data folder ({@code herald.data-dir}, default {@code ./herald-data}). */
public final class DataDirectory {

    private static final Logger log = LoggerFactory.getLogger(DataDirectory.class);
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final Set<PosixFilePermission> OWNER_READ_WRITE = PosixFilePermissions.fromString("rw-------");

    private DataDirectory() {
    }

    public static Path resolve(Environment environment) {
        // bound here, not injected: environment post-processors need the folder before any bean exists
        return Binder.get(environment).bindOrCreate("herald", DataDirectoryProperties.class).dataDir()
                .toAbsolutePath().normalize();
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
     * Takes group and other permissions off an existing secret file: earlier versions wrote the
     * demo key with the default mode, and restricted the other key files only after writing them.
     */
    public static void restrictExisting(Path file) throws IOException {
        if (!POSIX || !Files.exists(file)) {
            return;
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        if (OWNER_READ_WRITE.containsAll(permissions)) {
            return;
        }
        Files.setPosixFilePermissions(file, OWNER_READ_WRITE);
        log.warn("{} was readable by others; it is now the owner's alone (mode 0600)", file);
    }

    /**
     * Writes a new file that only its owner may read (mode 0600 where the file system has POSIX
     * permissions). The mode is set as the file is created, so the secret is never readable by
     * others, not even between creating and restricting it. Refuses to overwrite a file.
     */
    public static void writeSecret(Path file, String content) throws IOException {
        create(file.toAbsolutePath().getParent());
        if (POSIX) {
            FileAttribute<?> ownerOnly = PosixFilePermissions.asFileAttribute(OWNER_READ_WRITE);
            Files.createFile(file, ownerOnly);
        } else {
            log.warn("cannot restrict permissions of {}: the file system has no POSIX permissions", file);
            Files.createFile(file);
        }
        Files.writeString(file, content, StandardCharsets.UTF_8, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }
}
