package io.herald.command.health;

import io.herald.command.publishing.TimerBatch;
import io.herald.command.publishing.TimerRows;
import io.herald.contracts.channel.ChannelApiVersionRecordedEvent;
import io.herald.contracts.channel.ChannelApiVersionRetiredEvent;
import io.herald.contracts.channel.ChannelAuthLostEvent;
import io.herald.contracts.channel.ChannelAuthRegainedEvent;
import io.herald.contracts.channel.ChannelTokenExpiringEvent;
import io.herald.contracts.channel.ChannelTokenExpiryRecordedEvent;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationHeldEvent;
import io.herald.contracts.publication.PublicationReleasedEvent;
import java.sql.Timestamp;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Keeps {@code channel_auth_lost}, {@code channel_version_retired} and {@code publication_held} in step with the events, in the
 * subscribing processor of the timer rows: each row commits or rolls back with its event. A held
 * publication has no timer: nothing of it is due until its connection works again.
 */
@Component
@ProcessingGroup(TimerRows.PROCESSING_GROUP)
public class HealthRows {

    private final JdbcTemplate jdbc;
    private final TimerBatch timers;

    HealthRows(JdbcTemplate jdbc, TimerBatch timers) {
        this.jdbc = jdbc;
        this.timers = timers;
    }

    @EventHandler
    void on(ChannelAuthLostEvent event) {
        jdbc.update("""
                INSERT INTO channel_auth_lost (workspace_id, channel_id, credential_version, reason, lost_at)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (workspace_id, channel_id) DO UPDATE SET credential_version = excluded.credential_version,
                    reason = excluded.reason, lost_at = excluded.lost_at""",
                event.workspaceId().value(), event.channelId().value(), event.credentialVersion(), event.reason(),
                Timestamp.from(event.lostAt()));
    }

    @EventHandler
    void on(ChannelAuthRegainedEvent event) {
        jdbc.update("DELETE FROM channel_auth_lost WHERE workspace_id = ? AND channel_id = ?",
                event.workspaceId().value(), event.channelId().value());
    }

    @EventHandler
    void on(ChannelApiVersionRetiredEvent event) {
        jdbc.update("""
                INSERT INTO channel_version_retired (workspace_id, channel_id, version, reason, retired_at)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (workspace_id, channel_id) DO UPDATE SET version = excluded.version,
                    reason = excluded.reason, retired_at = excluded.retired_at""",
                event.workspaceId().value(), event.channelId().value(), event.version(), event.reason(),
                Timestamp.from(event.retiredAt()));
    }

    @EventHandler
    void on(ChannelApiVersionRecordedEvent event) {
        if (event.replacedRetired()) {
            jdbc.update("DELETE FROM channel_version_retired WHERE workspace_id = ? AND channel_id = ?",
                    event.workspaceId().value(), event.channelId().value());
        }
    }

    @EventHandler
    void on(ChannelTokenExpiryRecordedEvent event) {
        if (event.expiresAt() == null) {
            jdbc.update("DELETE FROM channel_token_expiry WHERE connection_id = ?", event.connectionId().value());
            return;
        }
        jdbc.update("""
                INSERT INTO channel_token_expiry (connection_id, expires_at, warned) VALUES (?, ?, FALSE)
                ON CONFLICT (connection_id) DO UPDATE SET expires_at = excluded.expires_at, warned = FALSE""",
                event.connectionId().value(), Timestamp.from(event.expiresAt()));
    }

    @EventHandler
    void on(ChannelTokenExpiringEvent event) {
        jdbc.update("UPDATE channel_token_expiry SET warned = TRUE WHERE connection_id = ? AND expires_at = ?",
                event.connectionId().value(), Timestamp.from(event.expiresAt()));
    }

    @EventHandler
    void on(PublicationHeldEvent event) {
        timers.clear(event.publicationId());
        jdbc.update("""
                INSERT INTO publication_held (publication_id, workspace_id, channel_id, requested_at, held_at)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT (publication_id) DO NOTHING""",
                event.publicationId().value(), event.workspaceId().value(), event.channelId().value(),
                event.requestedAt() == null ? null : Timestamp.from(event.requestedAt()),
                Timestamp.from(event.heldAt()));
    }

    @EventHandler
    void on(PublicationReleasedEvent event) {
        jdbc.update("DELETE FROM publication_held WHERE publication_id = ?", event.publicationId().value());
    }

    @EventHandler
    void on(PublicationAbandonedEvent event) {
        jdbc.update("DELETE FROM publication_held WHERE publication_id = ?", event.publicationId().value());
    }
}
