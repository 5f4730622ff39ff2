package io.herald.access;

import com.github.benmanes.caffeine.cache.LoadingCache;
import io.herald.platform.database.RowCache;
import io.herald.platform.secrets.CredentialCipher;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Each workspace's secret for signed request bodies, encrypted at rest with the credential key,
 * and the signatures already accepted. Seen signatures live in PostgreSQL, not in memory: every
 * node shares them, so a request replayed to another node inside the window is refused as well.
 * A workspace's secret (or that it has none) is kept for {@code herald.security.cache-ttl}
 * ({@link RowCache}); a change made on another node applies here within that time.
 */
@Component
public class SigningSecrets {

    private static final Duration CLEANUP_INTERVAL = Duration.ofMinutes(1);

    private final JdbcTemplate jdbc;
    private final CredentialCipher cipher;
    private final Clock clock;
    private final LoadingCache<String, Optional<byte[]>> secrets;
    private final AtomicReference<Instant> lastCleanup = new AtomicReference<>(Instant.EPOCH);

    public SigningSecrets(JdbcTemplate jdbc, CredentialCipher cipher, Clock clock, SecurityProperties properties) {
        this.jdbc = jdbc;
        this.cipher = cipher;
        this.clock = clock;
        this.secrets = RowCache.of(10_000, properties.cacheTtl(), this::load);
    }

    public void store(String workspaceId, String secret) {
        byte[] sealed = cipher.encrypt(secret.getBytes(StandardCharsets.UTF_8), associatedData(workspaceId));
        jdbc.update("""
                INSERT INTO herald_signing_secret (workspace_id, secret_ciphertext, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (workspace_id) DO UPDATE SET secret_ciphertext = excluded.secret_ciphertext,
                                                         updated_at = excluded.updated_at""",
                workspaceId, sealed, Timestamp.from(clock.instant()));
        secrets.invalidate(workspaceId);
    }

    public boolean remove(String workspaceId) {
        boolean removed = jdbc.update("DELETE FROM herald_signing_secret WHERE workspace_id = ?", workspaceId) > 0;
        secrets.invalidate(workspaceId);
        return removed;
    }

    /** The workspace's secret when it requires signed requests. */
    public Optional<byte[]> secret(String workspaceId) {
        return secrets.get(workspaceId);
    }

    private Optional<byte[]> load(String workspaceId) {
        return jdbc.query("SELECT secret_ciphertext FROM herald_signing_secret WHERE workspace_id = ?",
                        (rs, n) -> rs.getBytes(1), workspaceId).stream().findFirst()
                .map(sealed -> cipher.decrypt(sealed, associatedData(workspaceId)));
    }

    /**
     * Records a signature as used until it leaves the tolerance window; false when it was used
     * before, on any node (a replay): the primary key decides, so two nodes racing with the same
     * signature cannot both win. Expired entries are dropped on the way, at most once a minute
     * per node, since a signature past its window is refused by its timestamp anyway.
     */
    public boolean firstUse(String workspaceId, String signature, Instant expiresAt) {
        Instant now = clock.instant();
        Instant last = lastCleanup.get();
        if (last.plus(CLEANUP_INTERVAL).isBefore(now) && lastCleanup.compareAndSet(last, now)) {
            jdbc.update("DELETE FROM herald_seen_signature WHERE expires_at < ?", Timestamp.from(now));
        }
        return jdbc.update("""
                INSERT INTO herald_seen_signature (workspace_id, signature, expires_at) VALUES (?, ?, ?)
                ON CONFLICT DO NOTHING""", workspaceId, signature, Timestamp.from(expiresAt)) == 1;
    }

    /** Re-encrypts every signing secret not yet under the encrypting key (key rotation); returns how many. */
    public int resealAll() {
        record Sealed(String workspace, byte[] ciphertext) {
        }
        int resealed = 0;
        for (Sealed row : jdbc.query("SELECT workspace_id, secret_ciphertext FROM herald_signing_secret",
                (rs, n) -> new Sealed(rs.getString(1), rs.getBytes(2)))) {
            if (!cipher.underPrimaryKey(row.ciphertext())) {
                resealed += jdbc.update("""
                        UPDATE herald_signing_secret SET secret_ciphertext = ?
                        WHERE workspace_id = ? AND secret_ciphertext = ?""",
                        cipher.reseal(row.ciphertext(), associatedData(row.workspace())), row.workspace(),
                        row.ciphertext());
                secrets.invalidate(row.workspace());
            }
        }
        return resealed;
    }

    private static String associatedData(String workspaceId) {
        return "signing-secret:" + workspaceId;
    }
}
