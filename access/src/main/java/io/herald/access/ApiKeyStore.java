package io.herald.access;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.security.MessageDigest;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Workspaces and their API keys. A raw key is {@code <keyId>.<secret>}: the key id finds the row,
 * then the SHA-256 of the whole presented key is compared in constant time with the stored one.
 * Rows found by key id are kept for {@code herald.security.cache-ttl}: a request costs no query,
 * and a revocation on another node takes effect there within that time (on this node at once).
 */
@Component
public class ApiKeyStore {

    private final JdbcTemplate jdbc;
    private final Clock clock;
    /** Key id to its live row, or empty when there is none; nothing else (no raw key) is kept. */
    private final Cache<String, Optional<LiveKey>> live;

    public ApiKeyStore(JdbcTemplate jdbc, Clock clock, SecurityProperties properties) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.live = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(properties.cacheTtl()).build();
    }

    private record LiveKey(String workspaceId, String label, Set<Role> roles, byte[] hash) {
    }

    public record Workspace(String workspaceId, String name, Instant createdAt) {
    }

    public record KeyInfo(String keyId, String label, List<String> roles, Instant createdAt, String createdBy,
                          Instant revokedAt) {
    }

    public record IssuedKey(String keyId, String key, List<String> roles, String label) {
    }

    /** Creates the workspace (one statement, no transaction to poison); empty when the id is taken. */
    public Optional<Workspace> createWorkspace(String workspaceId, String name) {
        Instant now = clock.instant();
        try {
            jdbc.update("INSERT INTO herald_workspace (workspace_id, name, created_at) VALUES (?, ?, ?)",
                    workspaceId, name, Timestamp.from(now));
            return Optional.of(new Workspace(workspaceId, name, now));
        } catch (DuplicateKeyException taken) {
            return Optional.empty();
        }
    }

    public Optional<Workspace> workspace(String workspaceId) {
        return jdbc.query("SELECT workspace_id, name, created_at FROM herald_workspace WHERE workspace_id = ?",
                (rs, n) -> new Workspace(rs.getString(1), rs.getString(2), rs.getTimestamp(3).toInstant()),
                workspaceId).stream().findFirst();
    }

    public IssuedKey issue(String workspaceId, Set<Role> roles, String label, String createdBy) {
        String keyId = "k_" + Hashes.randomHex(10);
        String key = keyId + "." + Hashes.randomSecret();
        List<String> names = roles.stream().sorted().map(Role::wireName).toList();
        jdbc.update("""
                INSERT INTO herald_api_key (key_id, workspace_id, label, roles, key_hash, created_at, created_by)
                VALUES (?, ?, ?, ?, ?, ?, ?)""",
                keyId, workspaceId, label, String.join(",", names), Hashes.sha256(key),
                Timestamp.from(clock.instant()), createdBy);
        return new IssuedKey(keyId, key, names, label);
    }

    public List<KeyInfo> keys(String workspaceId) {
        return jdbc.query("""
                SELECT key_id, label, roles, created_at, created_by, revoked_at FROM herald_api_key
                 WHERE workspace_id = ? ORDER BY created_at, key_id""",
                (rs, n) -> new KeyInfo(rs.getString(1), rs.getString(2), Arrays.asList(rs.getString(3).split(",")),
                        rs.getTimestamp(4).toInstant(), rs.getString(5),
                        rs.getTimestamp(6) == null ? null : rs.getTimestamp(6).toInstant()),
                workspaceId);
    }

    /** Revokes a key of the workspace; false when the workspace has no such key. */
    public boolean revoke(String workspaceId, String keyId) {
        int found = jdbc.update("""
                UPDATE herald_api_key SET revoked_at = coalesce(revoked_at, ?)
                 WHERE workspace_id = ? AND key_id = ?""", Timestamp.from(clock.instant()), workspaceId, keyId);
        live.invalidate(keyId);
        return found > 0;
    }

    /** The caller a presented workspace key stands for, if it is known and not revoked. */
    public Optional<Caller> resolve(String presented) {
        int dot = presented.indexOf('.');
        if (dot <= 0 || dot > 64) {
            return Optional.empty();
        }
        String keyId = presented.substring(0, dot);
        byte[] presentedHash = Hashes.sha256(presented);
        return live.get(keyId, this::load)
                .filter(key -> MessageDigest.isEqual(key.hash(), presentedHash))
                .map(key -> new Caller(keyId, key.workspaceId(), key.label(), key.roles()));
    }

    private Optional<LiveKey> load(String keyId) {
        return jdbc.query("""
                SELECT workspace_id, label, roles, key_hash FROM herald_api_key
                 WHERE key_id = ? AND revoked_at IS NULL""",
                (rs, n) -> new LiveKey(rs.getString(1), rs.getString(2), Set.copyOf(roles(rs.getString(3))),
                        rs.getBytes(4)),
                keyId).stream().findFirst();
    }

    private static Set<Role> roles(String stored) {
        return Arrays.stream(stored.split(","))
                .map(Role::fromWireName)
                .flatMap(Optional::stream)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Role.class)));
    }
}
