package io.herald.command.webhook;

import io.herald.platform.secrets.CredentialCipher;
import io.herald.contracts.id.WorkspaceId;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The command side's table of webhook subscriptions, their secrets encrypted with the credential
 * key. A deleted subscription keeps its row (without secrets), so a later one under the same id
 * continues the secret versions and no old ciphertext ever matches a new version. After a
 * rotation the previous secret is kept for {@link #OVERLAP}: tries sign with both. The senders
 * count each subscription's unreachable tries in a row here and pause it after enough of them.
 */
@Repository
public class WebhookStore {

    /** How long a rotated-out secret still signs (docs/api.md#webhooks: 24 h). */
    public static final Duration OVERLAP = Duration.ofHours(24);

    private final JdbcTemplate jdbc;
    private final CredentialCipher cipher;

    public WebhookStore(JdbcTemplate jdbc, CredentialCipher cipher) {
        this.jdbc = jdbc;
        this.cipher = cipher;
    }

    /** A subscription as stored; secrets still encrypted. */
    record Stored(WorkspaceId workspaceId, String webhookId, String url, List<String> events, boolean enabled,
                  boolean deleted, long secretVersion, byte[] secret, long previousVersion, byte[] previousSecret,
                  Instant previousUntil, Instant createdAt, Instant pausedAt) {
    }

    /**
     * What the API shows of a subscription: never a secret. {@code pausedAt} and {@code pausedReason}
     * are set while the senders hold its deliveries back (its endpoint stopped answering).
     */
    public record Listed(String webhookId, String url, List<String> events, boolean enabled, Instant createdAt,
                         Instant pausedAt, String pausedReason) {
        public boolean paused() {
            return pausedAt != null;
        }
    }

    /** A paused subscription, as the senders leave it out of their claims. */
    public record Paused(WorkspaceId workspaceId, String webhookId) {
    }

    /**
     * Where and how to send a delivery: the URL and the secrets to sign with, newest first.
     * Empty when the subscription was deleted.
     */
    public record Target(String url, boolean enabled, boolean paused, List<String> secrets) {
        @Override
        public String toString() {
            return "Target[" + url + ", enabled=" + enabled + ", paused=" + paused + ", " + secrets.size()
                    + " secrets]";
        }
    }

    Optional<Stored> load(WorkspaceId workspace, String webhookId) {
        return jdbc.query("SELECT * FROM webhook_subscription WHERE workspace_id = ? AND webhook_id = ? FOR UPDATE",
                this::map, workspace.value(), webhookId).stream().findFirst();
    }

    public List<Listed> list(WorkspaceId workspace) {
        return jdbc.query("""
                SELECT webhook_id, url, events, enabled, created_at, paused_at, paused_reason FROM webhook_subscription
                WHERE workspace_id = ? AND NOT deleted ORDER BY webhook_id""",
                (rs, row) -> new Listed(rs.getString("webhook_id"), rs.getString("url"), strings(rs.getArray("events")),
                        rs.getBoolean("enabled"), rs.getTimestamp("created_at").toInstant(),
                        instant(rs.getTimestamp("paused_at")), rs.getString("paused_reason")), workspace.value());
    }

    /** One subscription as {@link #list} shows it. */
    public Optional<Listed> listed(WorkspaceId workspace, String webhookId) {
        return list(workspace).stream().filter(listed -> listed.webhookId().equals(webhookId)).findFirst();
    }

    /**
     * Serialises the creations of one workspace's subscriptions until the transaction ends, so
     * two concurrent PUTs cannot both see room for one more.
     */
    void lockWorkspace(WorkspaceId workspace) {
        jdbc.query("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", rs -> null,
                "webhook_subscription/" + workspace.value());
    }

    /** How many subscriptions the workspace has (deleted ones not counted). */
    int count(WorkspaceId workspace) {
        Integer count = jdbc.queryForObject(
                "SELECT count(*) FROM webhook_subscription WHERE workspace_id = ? AND NOT deleted", Integer.class,
                workspace.value());
        return count == null ? 0 : count;
    }

    /** Every paused subscription, for the senders to leave out of their claims. */
    public List<Paused> paused() {
        return jdbc.query("SELECT workspace_id, webhook_id FROM webhook_subscription "
                        + "WHERE paused_at IS NOT NULL AND NOT deleted",
                (rs, row) -> new Paused(new WorkspaceId(rs.getString("workspace_id")), rs.getString("webhook_id")));
    }

    /**
     * A try of the subscription timed out or could not connect: one more in a row. The
     * {@code pauseAfter}th in a row pauses it, with {@code reason}. True when this call paused it.
     */
    public boolean unreachable(WorkspaceId workspace, String webhookId, int pauseAfter, String reason, Instant at) {
        List<Boolean> pausedNow = jdbc.query("""
                UPDATE webhook_subscription s SET unreachable_tries = s.unreachable_tries + 1,
                    paused_at = CASE WHEN s.paused_at IS NULL AND s.unreachable_tries + 1 >= ? THEN ? ELSE s.paused_at END,
                    paused_reason = CASE WHEN s.paused_at IS NULL AND s.unreachable_tries + 1 >= ? THEN ?
                                         ELSE s.paused_reason END
                WHERE s.workspace_id = ? AND s.webhook_id = ? AND NOT s.deleted
                RETURNING s.paused_at = ? AS paused_now""",
                (rs, row) -> rs.getBoolean("paused_now"), pauseAfter, Timestamp.from(at), pauseAfter, reason,
                workspace.value(), webhookId, Timestamp.from(at));
        return pausedNow.stream().anyMatch(Boolean::booleanValue);
    }

    /** A try of the subscription was answered (whatever the status): the count in a row starts again. */
    public void reachable(WorkspaceId workspace, String webhookId) {
        jdbc.update("""
                UPDATE webhook_subscription SET unreachable_tries = 0
                WHERE workspace_id = ? AND webhook_id = ? AND unreachable_tries > 0""", workspace.value(), webhookId);
    }

    /** The senders claim its deliveries again, and the count in a row starts again. False when it was not paused. */
    boolean resume(WorkspaceId workspace, String webhookId) {
        return 1 == jdbc.update("""
                UPDATE webhook_subscription SET unreachable_tries = 0, paused_at = NULL, paused_reason = NULL
                WHERE workspace_id = ? AND webhook_id = ? AND NOT deleted AND paused_at IS NOT NULL""",
                workspace.value(), webhookId);
    }

    public Optional<Target> target(WorkspaceId workspace, String webhookId, Instant now) {
        return jdbc.query("SELECT * FROM webhook_subscription WHERE workspace_id = ? AND webhook_id = ?",
                this::map, workspace.value(), webhookId).stream().findFirst()
                .filter(stored -> !stored.deleted())
                .map(stored -> {
                    List<String> secrets = new ArrayList<>();
                    secrets.add(decrypt(stored.secret(), workspace, webhookId, stored.secretVersion()));
                    if (stored.previousSecret() != null && stored.previousUntil() != null
                            && now.isBefore(stored.previousUntil())) {
                        secrets.add(decrypt(stored.previousSecret(), workspace, webhookId, stored.previousVersion()));
                    }
                    return new Target(stored.url(), stored.enabled(), stored.pausedAt() != null,
                            List.copyOf(secrets));
                });
    }

    /**
     * A new subscription, or a deleted one begun again. False when a concurrent request created it
     * first: that request's secret stands.
     */
    boolean create(WorkspaceId workspace, String webhookId, String url, List<String> events, boolean enabled,
                   long secretVersion, String secret, Instant at) {
        return 1 == jdbc.update("""
                INSERT INTO webhook_subscription (workspace_id, webhook_id, url, events, enabled, deleted,
                    secret_version, secret_ciphertext, previous_version, previous_ciphertext, previous_until,
                    created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, FALSE, ?, ?, 0, NULL, NULL, ?, ?)
                ON CONFLICT (workspace_id, webhook_id) DO UPDATE SET
                    url = EXCLUDED.url, events = EXCLUDED.events, enabled = EXCLUDED.enabled, deleted = FALSE,
                    secret_version = EXCLUDED.secret_version, secret_ciphertext = EXCLUDED.secret_ciphertext,
                    previous_version = 0, previous_ciphertext = NULL, previous_until = NULL,
                    unreachable_tries = 0, paused_at = NULL, paused_reason = NULL,
                    created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at
                WHERE webhook_subscription.deleted
                """, workspace.value(), webhookId, url, events.toArray(String[]::new), enabled, secretVersion,
                encrypt(secret, workspace, webhookId, secretVersion), Timestamp.from(at), Timestamp.from(at));
    }

    void update(WorkspaceId workspace, String webhookId, String url, List<String> events, boolean enabled,
                Instant at) {
        jdbc.update("""
                UPDATE webhook_subscription SET url = ?, events = ?, enabled = ?, updated_at = ?
                WHERE workspace_id = ? AND webhook_id = ?""",
                url, events.toArray(String[]::new), enabled, Timestamp.from(at), workspace.value(), webhookId);
    }

    /** The current secret becomes the previous one, signing alongside the new one until {@link #OVERLAP} ends. */
    void rotate(Stored stored, long newVersion, String secret, Instant at) {
        jdbc.update("""
                UPDATE webhook_subscription SET previous_version = secret_version,
                    previous_ciphertext = secret_ciphertext, previous_until = ?,
                    secret_version = ?, secret_ciphertext = ?, updated_at = ?
                WHERE workspace_id = ? AND webhook_id = ?""",
                Timestamp.from(at.plus(OVERLAP)), newVersion,
                encrypt(secret, stored.workspaceId(), stored.webhookId(), newVersion), Timestamp.from(at),
                stored.workspaceId().value(), stored.webhookId());
    }

    void delete(WorkspaceId workspace, String webhookId, Instant at) {
        jdbc.update("""
                UPDATE webhook_subscription SET deleted = TRUE, secret_ciphertext = NULL, previous_ciphertext = NULL,
                    previous_until = NULL, updated_at = ?
                WHERE workspace_id = ? AND webhook_id = ?""", Timestamp.from(at), workspace.value(), webhookId);
    }

    /**
     * Re-encrypts every current and previous webhook secret not yet under the encrypting key (key
     * rotation), each only if its row is unchanged since it was read. Returns how many secrets.
     */
    public int resealAll() {
        List<Stored> rows = jdbc.query("SELECT * FROM webhook_subscription WHERE NOT deleted", this::map);
        int resealed = 0;
        for (Stored row : rows) {
            if (row.secret() != null && !cipher.underPrimaryKey(row.secret())) {
                byte[] fresh = cipher.reseal(row.secret(),
                        associatedData(row.workspaceId(), row.webhookId(), row.secretVersion()));
                resealed += jdbc.update("""
                        UPDATE webhook_subscription SET secret_ciphertext = ?
                        WHERE workspace_id = ? AND webhook_id = ? AND secret_version = ? AND secret_ciphertext = ?""",
                        fresh, row.workspaceId().value(), row.webhookId(), row.secretVersion(), row.secret());
            }
            if (row.previousSecret() != null && !cipher.underPrimaryKey(row.previousSecret())) {
                byte[] fresh = cipher.reseal(row.previousSecret(),
                        associatedData(row.workspaceId(), row.webhookId(), row.previousVersion()));
                resealed += jdbc.update("""
                        UPDATE webhook_subscription SET previous_ciphertext = ?
                        WHERE workspace_id = ? AND webhook_id = ? AND previous_version = ? AND previous_ciphertext = ?""",
                        fresh, row.workspaceId().value(), row.webhookId(), row.previousVersion(),
                        row.previousSecret());
            }
        }
        return resealed;
    }

    private byte[] encrypt(String secret, WorkspaceId workspace, String webhookId, long version) {
        return cipher.encrypt(secret.getBytes(StandardCharsets.UTF_8), associatedData(workspace, webhookId, version));
    }

    private String decrypt(byte[] sealed, WorkspaceId workspace, String webhookId, long version) {
        return new String(cipher.decrypt(sealed, associatedData(workspace, webhookId, version)),
                StandardCharsets.UTF_8);
    }

    /** Bound to the row and version: a ciphertext copied onto another webhook or version does not decrypt. */
    private static String associatedData(WorkspaceId workspace, String webhookId, long version) {
        return "webhook/" + workspace.value() + "/" + webhookId + "/" + version;
    }

    private Stored map(ResultSet rs, int row) throws SQLException {
        Timestamp previousUntil = rs.getTimestamp("previous_until");
        return new Stored(new WorkspaceId(rs.getString("workspace_id")), rs.getString("webhook_id"),
                rs.getString("url"), strings(rs.getArray("events")), rs.getBoolean("enabled"),
                rs.getBoolean("deleted"), rs.getLong("secret_version"), rs.getBytes("secret_ciphertext"),
                rs.getLong("previous_version"), rs.getBytes("previous_ciphertext"),
                previousUntil == null ? null : previousUntil.toInstant(), rs.getTimestamp("created_at").toInstant(),
                instant(rs.getTimestamp("paused_at")));
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    private static List<String> strings(Array array) throws SQLException {
        return List.copyOf(Arrays.asList((String[]) array.getArray()));
    }
}
