package io.herald.query.channel;

import static io.herald.query.jdbc.JdbcColumns.instant;
import static io.herald.query.jdbc.JdbcColumns.timestamp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.contracts.channel.ApiVersionState;
import io.herald.contracts.channel.ApiVersionView;
import io.herald.contracts.channel.BudgetView;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelConnectionView;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelStatus;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.query.jdbc.JdbcColumns;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/** The {@code channel_connection_view} table. */
@Repository
public class ChannelViewRepository {

    private static final String COLUMNS = """
            workspace_id, channel_id, connection_id, type, settings, auto_reattempt, credential_version,
            capabilities, retry_safety, probed_at, updated_at, last_sequence, verify_after_success""";

    static final String NOT_PROBED = "not checked yet: no capability probe has run for the current credentials";

    private final NamedParameterJdbcTemplate jdbc;
    private final JdbcColumns columns;

    public ChannelViewRepository(NamedParameterJdbcTemplate jdbc, ObjectMapper objectMapper) {
        this.jdbc = jdbc;
        this.columns = new JdbcColumns(objectMapper);
    }

    /**
     * A stored connection.
     *
     * @param capabilities null until a probe for the current credentials was recorded
     * @param retrySafety  what the probe of the current credentials found; null until then
     */
    record Row(String connectionId, WorkspaceId workspaceId, ChannelId channelId, ChannelType type,
               ChannelSettings settings, boolean autoReattempt, long credentialVersion,
               ChannelConnectionView.Capabilities capabilities, RetrySafety retrySafety, Instant probedAt,
               Instant updatedAt, long lastSequence, boolean verifyAfterSuccess) {
    }

    Optional<Row> find(WorkspaceId workspace, ChannelId channel) {
        return jdbc.query("SELECT " + COLUMNS + " FROM channel_connection_view"
                                + " WHERE workspace_id = :workspace AND channel_id = :channel",
                        new MapSqlParameterSource("workspace", workspace.value()).addValue("channel", channel.value()),
                        (rs, n) -> row(rs))
                .stream().findFirst();
    }

    /** Writes the row unless a later event of the connection was applied already. */
    void save(Row row) {
        jdbc.update("""
                INSERT INTO channel_connection_view (%s)
                VALUES (:workspace, :channel, :connection, :type, CAST(:settings AS jsonb), :autoReattempt,
                        :credentialVersion, CAST(:capabilities AS jsonb), :retrySafety, :probedAt, :updatedAt,
                        :sequence, :verify)
                ON CONFLICT (workspace_id, channel_id) DO UPDATE SET
                    connection_id = EXCLUDED.connection_id, type = EXCLUDED.type, settings = EXCLUDED.settings,
                    auto_reattempt = EXCLUDED.auto_reattempt, credential_version = EXCLUDED.credential_version,
                    capabilities = EXCLUDED.capabilities, retry_safety = EXCLUDED.retry_safety,
                    probed_at = EXCLUDED.probed_at,
                    updated_at = EXCLUDED.updated_at, last_sequence = EXCLUDED.last_sequence,
                    verify_after_success = EXCLUDED.verify_after_success
                WHERE channel_connection_view.last_sequence < EXCLUDED.last_sequence""".formatted(COLUMNS),
                new MapSqlParameterSource()
                        .addValue("workspace", row.workspaceId().value())
                        .addValue("channel", row.channelId().value())
                        .addValue("connection", row.connectionId())
                        .addValue("type", row.type().wireName())
                        .addValue("settings", columns.toJson(row.settings()))
                        .addValue("autoReattempt", row.autoReattempt())
                        .addValue("credentialVersion", row.credentialVersion())
                        .addValue("capabilities", columns.toJson(row.capabilities()))
                        .addValue("retrySafety", row.retrySafety() == null ? null : row.retrySafety().wireName())
                        .addValue("probedAt", timestamp(row.probedAt()))
                        .addValue("updatedAt", timestamp(row.updatedAt()))
                        .addValue("sequence", row.lastSequence())
                        .addValue("verify", row.verifyAfterSuccess()));
    }

    void deleteAll() {
        jdbc.getJdbcTemplate().update("DELETE FROM channel_connection_view");
    }

    public List<ChannelConnectionView> findAll(WorkspaceId workspace) {
        return jdbc.query("SELECT " + COLUMNS + ", " + HEALTH + " FROM channel_connection_view v"
                        + " WHERE workspace_id = :workspace ORDER BY channel_id",
                new MapSqlParameterSource("workspace", workspace.value()),
                (rs, n) -> withHealth(view(row(rs)), rs));
    }

    /** The connection as webhooks and the list show it, health included. */
    public Optional<ChannelConnectionView> findView(WorkspaceId workspace, ChannelId channel) {
        return jdbc.query("SELECT " + COLUMNS + ", " + HEALTH + " FROM channel_connection_view v"
                                + " WHERE workspace_id = :workspace AND channel_id = :channel",
                        new MapSqlParameterSource("workspace", workspace.value()).addValue("channel", channel.value()),
                        (rs, n) -> withHealth(view(row(rs)), rs))
                .stream().findFirst();
    }

    private static final String HEALTH = """
            status, status_reason, token_expires_at, api_version, api_version_sunset_at, api_version_state,
            (SELECT coalesce(sum(c.publications), 0) FROM publication_counts c WHERE c.workspace_id = v.workspace_id
               AND c.channel_id = v.channel_id AND c.status = 'HELD') AS held_publications,
            (SELECT jsonb_build_object('remaining', r.remaining, 'resetsAt', r.resets_at, 'source', r.source)::text
               FROM (SELECT CASE WHEN b.blocked_until > now() THEN 0
                                 WHEN b.capacity IS NULL THEN NULL
                                 WHEN b.window_start IS NULL
                                   OR b.window_start + make_interval(secs => b.window_seconds) <= now() THEN b.capacity
                                 ELSE greatest(b.capacity - b.used, 0) END AS remaining,
                            CASE WHEN b.blocked_until > now() THEN b.blocked_until
                                 WHEN b.window_start IS NULL
                                   OR b.window_start + make_interval(secs => b.window_seconds) <= now() THEN NULL
                                 ELSE b.window_start + make_interval(secs => b.window_seconds) END AS resets_at,
                            CASE WHEN b.blocked_until > now() THEN 'rate-limit-headers' ELSE b.source END AS source
                       FROM connection_budget b
                      WHERE b.workspace_id = v.workspace_id AND b.channel_id = v.channel_id) r
              WHERE r.remaining IS NOT NULL ORDER BY r.remaining, r.resets_at DESC NULLS LAST LIMIT 1) AS budget""";

    /**
     * Sets the connection's health as of the event at {@code sequence}, unless a later event of the
     * connection was applied already.
     */
    void saveStatus(WorkspaceId workspace, ChannelId channel, ChannelStatus status, String reason, Instant at,
                    long sequence) {
        jdbc.update("""
                UPDATE channel_connection_view SET status = :status, status_reason = :reason, updated_at = :at,
                    last_sequence = :sequence
                WHERE workspace_id = :workspace AND channel_id = :channel AND last_sequence < :sequence""",
                new MapSqlParameterSource("workspace", workspace.value()).addValue("channel", channel.value())
                        .addValue("status", status.name()).addValue("reason", reason)
                        .addValue("at", timestamp(at)).addValue("sequence", sequence));
    }

    /** The token's known expiry as of the event at {@code sequence} (null: none known). */
    void saveExpiry(WorkspaceId workspace, ChannelId channel, Instant expiresAt, long sequence) {
        jdbc.update("""
                UPDATE channel_connection_view SET token_expires_at = :expiresAt, last_sequence = :sequence
                WHERE workspace_id = :workspace AND channel_id = :channel AND last_sequence < :sequence""",
                new MapSqlParameterSource("workspace", workspace.value()).addValue("channel", channel.value())
                        .addValue("expiresAt", timestamp(expiresAt)).addValue("sequence", sequence));
    }

    /** The connection's API version as of the event at {@code sequence}. */
    void saveApiVersion(WorkspaceId workspace, ChannelId channel, ApiVersionView version, long sequence) {
        jdbc.update("""
                UPDATE channel_connection_view SET api_version = :version, api_version_sunset_at = :sunsetAt,
                    api_version_state = :state, last_sequence = :sequence
                WHERE workspace_id = :workspace AND channel_id = :channel AND last_sequence < :sequence""",
                new MapSqlParameterSource("workspace", workspace.value()).addValue("channel", channel.value())
                        .addValue("version", version.version()).addValue("sunsetAt", timestamp(version.sunsetAt()))
                        .addValue("state", version.state().name()).addValue("sequence", sequence));
    }

    /** The provider no longer serves {@code version}; its sunset, where known, stays shown. */
    void saveApiVersionRetired(WorkspaceId workspace, ChannelId channel, String version, long sequence) {
        jdbc.update("""
                UPDATE channel_connection_view SET api_version = :version, api_version_state = 'RETIRED',
                    last_sequence = :sequence
                WHERE workspace_id = :workspace AND channel_id = :channel AND last_sequence < :sequence""",
                new MapSqlParameterSource("workspace", workspace.value()).addValue("channel", channel.value())
                        .addValue("version", version).addValue("sequence", sequence));
    }

    private ChannelConnectionView withHealth(ChannelConnectionView v, ResultSet rs) throws SQLException {
        String apiVersion = rs.getString("api_version");
        return new ChannelConnectionView(v.workspaceId(), v.channelId(), v.type(), v.settings(),
                v.autoReattemptAfterNotFound(), v.capabilities(), v.retrySafety(), v.probedAt(), v.updatedAt(),
                ChannelStatus.valueOf(rs.getString("status")), rs.getString("status_reason"),
                instant(rs, "token_expires_at"), rs.getInt("held_publications"),
                apiVersion == null ? null : new ApiVersionView(apiVersion, instant(rs, "api_version_sunset_at"),
                        ApiVersionState.valueOf(rs.getString("api_version_state"))),
                columns.fromJson(rs.getString("budget"), BudgetView.class), v.verifyAfterSuccess());
    }

    /** Before the first probe of the current credentials nothing is known to work, and the view says so. */
    static ChannelConnectionView view(Row row) {
        ChannelConnectionView.Capabilities capabilities = row.capabilities() != null ? row.capabilities()
                : new ChannelConnectionView.Capabilities(
                        Capability.unavailable(NOT_PROBED),
                        Capability.unavailable(NOT_PROBED));
        return new ChannelConnectionView(row.workspaceId(), row.channelId(), row.type(), row.settings(),
                row.autoReattempt(), capabilities, row.retrySafety(), row.probedAt(), row.updatedAt(), null, null, null,
                null, null, null, row.verifyAfterSuccess());
    }

    private Row row(ResultSet rs) throws SQLException {
        return new Row(rs.getString("connection_id"),
                WorkspaceId.of(rs.getString("workspace_id")),
                ChannelId.of(rs.getString("channel_id")),
                ChannelType.of(rs.getString("type")),
                columns.fromJson(rs.getString("settings"), ChannelSettings.class),
                rs.getBoolean("auto_reattempt"),
                rs.getLong("credential_version"),
                columns.fromJson(rs.getString("capabilities"), ChannelConnectionView.Capabilities.class),
                rs.getString("retry_safety") == null ? null : RetrySafety.fromWireName(rs.getString("retry_safety")),
                instant(rs, "probed_at"),
                instant(rs, "updated_at"),
                rs.getLong("last_sequence"),
                rs.getBoolean("verify_after_success"));
    }
}
