package io.herald.command.channel;

import org.springframework.boot.context.properties.EnableConfigurationProperties;

import io.herald.platform.database.RowCache;
import io.herald.platform.secrets.CredentialCipher;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.LoadingCache;
import io.herald.adapters.port.ChannelDirectory;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.port.ChannelSecrets;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The command side's table of channel connections, with their credentials encrypted. It answers
 * the intake ("is this a channel of this workspace, and of which type?") and the attempts and
 * read-backs (the decrypted connection for one call). Both answers come from rows kept, still encrypted, for
 * {@code herald.channels.cache-ttl} ({@link RowCache}): a connection changed on another node is used
 * here within that time (on this node at once). Configuring a connection always reads the table itself.
 */
@Repository
@EnableConfigurationProperties(ChannelCacheProperties.class)
public class ChannelConnectionStore implements ChannelDirectory {

    private final JdbcTemplate jdbc;
    private final CredentialCipher cipher;
    private final ObjectMapper json;
    private final ChannelPlugins plugins;
    private final LoadingCache<WorkspaceChannel, Optional<StoredConnection>> recent;

    public ChannelConnectionStore(JdbcTemplate jdbc, CredentialCipher cipher, ObjectMapper json,
                                  ChannelPlugins plugins, ChannelCacheProperties cache) {
        this.jdbc = jdbc;
        this.cipher = cipher;
        this.json = json;
        this.plugins = plugins;
        this.recent = RowCache.of(10_000, cache.cacheTtl(), key -> load(key.workspace(), key.channel()));
    }

    private record WorkspaceChannel(WorkspaceId workspace, ChannelId channel) {
    }

    /** A stored connection; secrets still encrypted. */
    record StoredConnection(WorkspaceId workspaceId, ChannelId channelId, ChannelType type, ChannelSettings settings,
                            long credentialVersion, byte[] secretsCiphertext, boolean autoReattemptAfterNotFound,
                            boolean verifyAfterSuccess) {
    }

    public Optional<ChannelType> typeOf(WorkspaceId workspace, ChannelId channel) {
        return recent(workspace, channel).map(StoredConnection::type);
    }

    @Override
    public Optional<io.herald.adapters.port.ChannelConnection> find(WorkspaceId workspace, ChannelId channel) {
        return recent(workspace, channel).map(stored -> new io.herald.adapters.port.ChannelConnection(
                stored.workspaceId(), stored.channelId(), stored.type(), stored.settings(), decrypt(stored),
                stored.autoReattemptAfterNotFound(), stored.verifyAfterSuccess()));
    }

    private Optional<StoredConnection> recent(WorkspaceId workspace, ChannelId channel) {
        return recent.get(new WorkspaceChannel(workspace, channel));
    }

    Optional<StoredConnection> load(WorkspaceId workspace, ChannelId channel) {
        return jdbc.query("SELECT * FROM channel_connection WHERE workspace_id = ? AND channel_id = ?",
                this::map, workspace.value(), channel.value()).stream().findFirst();
    }

    /**
     * The row as stored, locked until the caller's transaction ends: a write that depends on what it
     * read takes this, so no other writer of the row comes in between.
     */
    Optional<StoredConnection> loadForUpdate(WorkspaceId workspace, ChannelId channel) {
        return jdbc.query("SELECT * FROM channel_connection WHERE workspace_id = ? AND channel_id = ? FOR UPDATE",
                this::map, workspace.value(), channel.value()).stream().findFirst();
    }

    ChannelSecrets decrypt(StoredConnection stored) {
        byte[] plain = cipher.decrypt(stored.secretsCiphertext(),
                associatedData(stored.workspaceId(), stored.channelId(), stored.credentialVersion()));
        try {
            // the row's type says which plug-in's record the secrets are (they are stored untagged)
            return json.readValue(plain, plugins.plugin(stored.type()).secretsType());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("stored credentials of " + stored.channelId() + " are unreadable");
        }
    }

    void save(WorkspaceId workspace, ChannelId channel, ChannelType type, ChannelSettings settings,
              long credentialVersion, ChannelSecrets secrets, boolean autoReattempt, boolean verify, Instant at) {
        write(workspace, channel, type, settings, credentialVersion, secrets, autoReattempt, verify, at, """
                ON CONFLICT (workspace_id, channel_id) DO UPDATE SET
                    channel_type = EXCLUDED.channel_type, settings = EXCLUDED.settings,
                    credential_version = EXCLUDED.credential_version,
                    secrets_ciphertext = EXCLUDED.secrets_ciphertext, auto_reattempt = EXCLUDED.auto_reattempt,
                    verify_after_success = EXCLUDED.verify_after_success, updated_at = EXCLUDED.updated_at
                """);
    }

    /**
     * Stores a new connection unless its row exists by now (made by a concurrent request meanwhile:
     * that one is kept, and nothing is written).
     *
     * @return whether the row was inserted
     */
    boolean create(WorkspaceId workspace, ChannelId channel, ChannelType type, ChannelSettings settings,
                   long credentialVersion, ChannelSecrets secrets, boolean autoReattempt, boolean verify, Instant at) {
        return write(workspace, channel, type, settings, credentialVersion, secrets, autoReattempt, verify, at,
                "ON CONFLICT (workspace_id, channel_id) DO NOTHING") == 1;
    }

    private int write(WorkspaceId workspace, ChannelId channel, ChannelType type, ChannelSettings settings,
                      long credentialVersion, ChannelSecrets secrets, boolean autoReattempt, boolean verify,
                      Instant at, String onConflict) {
        byte[] sealed;
        String settingsJson;
        try {
            sealed = cipher.encrypt(json.writeValueAsBytes(secrets),
                    associatedData(workspace, channel, credentialVersion));
            settingsJson = json.writerFor(ChannelSettings.class).writeValueAsString(settings);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise channel connection " + channel);
        }
        int written = jdbc.update("""
                INSERT INTO channel_connection (workspace_id, channel_id, channel_type, settings, credential_version,
                                                secrets_ciphertext, auto_reattempt, verify_after_success, updated_at)
                VALUES (?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?)
                """ + onConflict, workspace.value(), channel.value(), type.wireName(), settingsJson,
                credentialVersion, sealed, autoReattempt, verify, Timestamp.from(at));
        recent.invalidate(new WorkspaceChannel(workspace, channel));
        return written;
    }

    /**
     * Re-encrypts every connection's credentials that are not yet under the encrypting key (key
     * rotation). Row by row, each only if it is unchanged since it was read, so a connection
     * configured meanwhile keeps its new credentials. Returns how many rows were re-encrypted.
     */
    public int resealAll() {
        record Sealed(String workspace, String channel, long version, byte[] ciphertext) {
        }
        List<Sealed> rows = jdbc.query(
                "SELECT workspace_id, channel_id, credential_version, secrets_ciphertext FROM channel_connection",
                (rs, n) -> new Sealed(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getBytes(4)));
        int resealed = 0;
        for (Sealed row : rows) {
            if (cipher.underPrimaryKey(row.ciphertext())) {
                continue;
            }
            WorkspaceId workspace = new WorkspaceId(row.workspace());
            ChannelId channel = new ChannelId(row.channel());
            byte[] fresh = cipher.reseal(row.ciphertext(), associatedData(workspace, channel, row.version()));
            resealed += jdbc.update("""
                    UPDATE channel_connection SET secrets_ciphertext = ?
                    WHERE workspace_id = ? AND channel_id = ? AND credential_version = ? AND secrets_ciphertext = ?""",
                    fresh, row.workspace(), row.channel(), row.version(), row.ciphertext());
            recent.invalidate(new WorkspaceChannel(workspace, channel));
        }
        return resealed;
    }

    private StoredConnection map(ResultSet rs, int row) throws SQLException {
        try {
            return new StoredConnection(new WorkspaceId(rs.getString("workspace_id")),
                    new ChannelId(rs.getString("channel_id")), ChannelType.of(rs.getString("channel_type")),
                    json.readValue(rs.getString("settings"), ChannelSettings.class), rs.getLong("credential_version"),
                    rs.getBytes("secrets_ciphertext"), rs.getBoolean("auto_reattempt"),
                    rs.getBoolean("verify_after_success"));
        } catch (JsonProcessingException e) {
            throw new SQLException("unreadable settings of channel " + rs.getString("channel_id"), e);
        }
    }

    private static String associatedData(WorkspaceId workspace, ChannelId channel, long version) {
        return workspace.value() + "/" + channel.value() + "/" + version;
    }
}
