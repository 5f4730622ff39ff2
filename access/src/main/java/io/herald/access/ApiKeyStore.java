package io.herald.access;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import io.herald.platform.database.RowCache;
import java.security.MessageDigest;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Workspaces and their API keys. A raw key is {@code <keyId>.<secret>}: the key id finds the row,
 * then the SHA-256 of the whole presented key is compared in constant time with the stored one.
 * Rows found by key id are kept for {@code herald.security.cache-ttl} ({@link RowCache}): a request
 * costs no query, and a revocation on another node takes effect there within that time (on this
 * node at once).
 *
 * <p>Made-up keys cost little: a string that is not of the form {@link #issue} mints is refused
 * without a query, and a key id without a live row is remembered in a bounded cache of its own,
 * so a flood of made-up ids can neither reach the database again nor push live keys out of theirs.
 * A key may expire ({@code expiresAt}); its last use is written at most once a minute per key and
 * node ({@link #LAST_USE_RESOLUTION}), never once per request.
 */
@Component
public class ApiKeyStore {

    /** Exactly what {@link #issue} mints: {@code k_} and 20 hex digits, a dot, 43 characters of URL-safe base64. */
    static final Pattern KEY_FORMAT = Pattern.compile("k_[0-9a-f]{20}\\.[A-Za-z0-9_-]{43}");
    /** How often a key's {@code last_used_at} is written at most. */
    static final Duration LAST_USE_RESOLUTION = Duration.ofMinutes(1);
    private static final Logger log = LoggerFactory.getLogger(ApiKeyStore.class);

    private final JdbcTemplate jdbc;
    private final Clock clock;
    /** Key id to its live row; nothing else (no raw key) is kept. */
    private final LoadingCache<String, LiveKey> live;
    /** Key ids that had no live row when asked: bounded, and apart from {@link #live}. */
    private final Cache<String, Boolean> unknown;
    /** Key ids whose last use this node wrote within {@link #LAST_USE_RESOLUTION}. */
    private final Cache<String, Boolean> lastUseWritten;
    private final AtomicLong lookups = new AtomicLong();

    public ApiKeyStore(JdbcTemplate jdbc, Clock clock, SecurityProperties properties) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.unknown = Caffeine.newBuilder().maximumSize(properties.unknownKeyCacheSize())
                .expireAfterWrite(properties.cacheTtl()).build();
        // a null from the loader is not kept in live: the id is remembered in unknown instead
        this.live = RowCache.of(properties.keyCacheSize(), properties.cacheTtl(),
                id -> unknown.getIfPresent(id) != null ? null : load(id));
        this.lastUseWritten = Caffeine.newBuilder().maximumSize(properties.keyCacheSize())
                .expireAfterWrite(LAST_USE_RESOLUTION).build();
    }

    private record LiveKey(String workspaceId, String label, Set<Role> roles, byte[] hash, Instant expiresAt) {
    }

    /** What a presented key stands for. */
    public sealed interface Resolution {
        /** A live key: the caller it stands for. */
        record Found(Caller caller) implements Resolution {
        }

        /** A key that was issued with an expiry that has passed (the whole key matched). */
        record Expired(String keyId) implements Resolution {
        }

        /** Not a key: malformed, made up, revoked, or with the wrong secret. */
        record Unknown() implements Resolution {
        }
    }

    private static final Resolution UNKNOWN = new Resolution.Unknown();

    public record Workspace(String workspaceId, String name, Instant createdAt) {
    }

    public record KeyInfo(String keyId, String label, List<String> roles, Instant createdAt, String createdBy,
                          Instant revokedAt, Instant expiresAt, Instant lastUsedAt) {
    }

    public record IssuedKey(String keyId, String key, List<String> roles, String label, Instant expiresAt) {
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

    /** A new key; {@code expiresAt} null for a key that does not expire. */
    public IssuedKey issue(String workspaceId, Set<Role> roles, String label, String createdBy, Instant expiresAt) {
        String keyId = "k_" + Hashes.randomHex(10);
        String key = keyId + "." + Hashes.randomSecret();
        List<String> names = roles.stream().sorted().map(Role::wireName).toList();
        jdbc.update("""
                INSERT INTO herald_api_key (key_id, workspace_id, label, roles, key_hash, created_at, created_by,
                                            expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
                keyId, workspaceId, label, String.join(",", names), Hashes.sha256(key),
                Timestamp.from(clock.instant()), createdBy, expiresAt == null ? null : Timestamp.from(expiresAt));
        unknown.invalidate(keyId);
        return new IssuedKey(keyId, key, names, label, expiresAt);
    }

    public List<KeyInfo> keys(String workspaceId) {
        return jdbc.query("""
                SELECT key_id, label, roles, created_at, created_by, revoked_at, expires_at, last_used_at
                  FROM herald_api_key
                 WHERE workspace_id = ? ORDER BY created_at, key_id""",
                (rs, n) -> new KeyInfo(rs.getString(1), rs.getString(2), Arrays.asList(rs.getString(3).split(",")),
                        rs.getTimestamp(4).toInstant(), rs.getString(5), instant(rs.getTimestamp(6)),
                        instant(rs.getTimestamp(7)), instant(rs.getTimestamp(8))),
                workspaceId);
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    /** Revokes a key of the workspace; false when the workspace has no such key. */
    public boolean revoke(String workspaceId, String keyId) {
        int found = jdbc.update("""
                UPDATE herald_api_key SET revoked_at = coalesce(revoked_at, ?)
                 WHERE workspace_id = ? AND key_id = ?""", Timestamp.from(clock.instant()), workspaceId, keyId);
        live.invalidate(keyId);
        return found > 0;
    }

    /** What a presented workspace key stands for: a live key, an expired one, or nothing. */
    public Resolution resolve(String presented) {
        if (!KEY_FORMAT.matcher(presented).matches()) {
            return UNKNOWN;
        }
        String keyId = presented.substring(0, presented.indexOf('.'));
        LiveKey key = live.get(keyId);
        if (key == null || !MessageDigest.isEqual(key.hash(), Hashes.sha256(presented))) {
            return UNKNOWN;
        }
        Instant now = clock.instant();
        if (key.expiresAt() != null && !now.isBefore(key.expiresAt())) {
            return new Resolution.Expired(keyId);
        }
        noteUse(keyId, now);
        return new Resolution.Found(new Caller(keyId, key.workspaceId(), key.label(), key.roles()));
    }

    /** How many times a key id was looked up in the database (made-up keys must not add to it). */
    public long lookups() {
        return lookups.get();
    }

    /** Entries held for live keys and for unknown key ids, after pending evictions. */
    public record CacheSizes(long live, long unknown) {
    }

    public CacheSizes cacheSizes() {
        live.cleanUp();
        unknown.cleanUp();
        return new CacheSizes(live.estimatedSize(), unknown.estimatedSize());
    }

    private LiveKey load(String keyId) {
        lookups.incrementAndGet();
        LiveKey found = jdbc.query("""
                SELECT workspace_id, label, roles, key_hash, expires_at FROM herald_api_key
                 WHERE key_id = ? AND revoked_at IS NULL""",
                (rs, n) -> new LiveKey(rs.getString(1), rs.getString(2), Set.copyOf(roles(rs.getString(3))),
                        rs.getBytes(4), instant(rs.getTimestamp(5))),
                keyId).stream().findFirst().orElse(null);
        if (found == null) {
            unknown.put(keyId, Boolean.TRUE);
        }
        return found;
    }

    /**
     * Writes the key's last use when this node has not written it within the last minute; the
     * condition in the statement keeps nodes from writing it more often between them. A failed
     * write costs the request nothing.
     */
    private void noteUse(String keyId, Instant now) {
        if (lastUseWritten.asMap().putIfAbsent(keyId, Boolean.TRUE) != null) {
            return;
        }
        try {
            jdbc.update("""
                    UPDATE herald_api_key SET last_used_at = ?
                     WHERE key_id = ? AND (last_used_at IS NULL OR last_used_at < ?)""",
                    Timestamp.from(now), keyId, Timestamp.from(now.minus(LAST_USE_RESOLUTION)));
        } catch (DataAccessException e) {
            log.warn("the last use of key {} was not recorded: {}", keyId, e.getMessage());
        }
    }

    private static Set<Role> roles(String stored) {
        return Arrays.stream(stored.split(","))
                .map(Role::fromWireName)
                .flatMap(Optional::stream)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Role.class)));
    }
}
