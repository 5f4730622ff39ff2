package io.herald.access;

import io.herald.platform.data.DataDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one key with the {@code system} role. Configured ({@code herald.security.system-key}), or
 * generated on the first start: then it is printed once and only its SHA-256 is kept, in
 * {@code <data-dir>/system-key.sha256}, so the printed key keeps working after restarts while
 * the data folder alone does not reveal it. Lost? Delete the file and restart for a new one.
 */
public final class SystemKey {

    static final String HASH_FILE = "system-key.sha256";
    static final int MIN_CONFIGURED_LENGTH = 32;
    private static final Logger log = LoggerFactory.getLogger(SystemKey.class);

    private final byte[] hash;

    private SystemKey(byte[] hash) {
        this.hash = hash;
    }

    public static SystemKey configured(String key) {
        if (key.length() < MIN_CONFIGURED_LENGTH || !ApiKeyAuthenticationFilter.KEY_SHAPE.matcher(key).matches()) {
            throw new IllegalStateException("herald.security.system-key must have " + MIN_CONFIGURED_LENGTH
                    + " to 512 characters of letters, digits and -._~+/= (e.g. `openssl rand -base64 32`)");
        }
        return new SystemKey(Hashes.sha256(key));
    }

    /** Reads the kept hash, or generates a key, prints it once and keeps its hash. */
    public static SystemKey fromDataDirectory(Path dataDirectory, boolean sharedDatabase) throws IOException {
        Path file = dataDirectory.resolve(HASH_FILE);
        if (Files.exists(file)) {
            DataDirectory.restrictExisting(file);
            return new SystemKey(HexFormat.of().parseHex(Files.readString(file).trim()));
        }
        if (sharedDatabase) {
            log.warn("herald.security.system-key is not set: this node generates its own system key; set "
                    + "HERALD_SECURITY_SYSTEM_KEY so that every node accepts the same one");
        }
        String key = "hs." + Hashes.randomSecret();
        byte[] hash = Hashes.sha256(key);
        DataDirectory.writeSecret(file, HexFormat.of().formatHex(hash));
        // the only time this key is ever shown: the operator copies it from here
        log.warn("generated the system key, shown only now; keep it safe: {} (its hash is kept in {})", key, file);
        return new SystemKey(hash);
    }

    static SystemKey resolve(SecurityProperties properties, org.springframework.core.env.Environment environment)
            throws IOException {
        String configured = properties.systemKey();
        if (configured != null && !configured.isBlank()) {
            return configured(configured.trim());
        }
        return fromDataDirectory(DataDirectory.resolve(environment), !DataDirectory.embeddedDatabase(environment));
    }

    /** Constant-time: compares SHA-256 digests of equal length. */
    public boolean matches(String presented) {
        return MessageDigest.isEqual(hash, Hashes.sha256(presented));
    }
}
