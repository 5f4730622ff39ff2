package io.herald.command.health;

import io.herald.command.publishing.PublicationDispatcher;
import io.herald.contracts.channel.ChannelApiVersionRecordedEvent;
import io.herald.contracts.channel.ChannelAuthRegainedEvent;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.ReleasePublicationCommand;
import java.time.Clock;
import java.util.List;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DisallowReplay;
import org.axonframework.eventhandling.EventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A re-authorised connection's held publications, or those of a connection that now sends an API
 * version its provider serves, become due again, oldest first: one release per
 * publication, nested commands of the dispatcher's batch, whose released events the dispatcher
 * turns into attempts (the connection's rate limit applies there). A release of a publication no
 * longer held changes nothing, so a redelivered event is harmless.
 */
@Component
@ProcessingGroup(PublicationDispatcher.PROCESSING_GROUP)
@DisallowReplay
public class HeldReleases {

    private static final Logger log = LoggerFactory.getLogger(HeldReleases.class);

    private final JdbcTemplate jdbc;
    private final CommandGateway commands;
    private final Clock clock;

    HeldReleases(JdbcTemplate jdbc, CommandGateway commands, Clock clock) {
        this.jdbc = jdbc;
        this.commands = commands;
        this.clock = clock;
    }

    @EventHandler
    void on(ChannelAuthRegainedEvent event) {
        release(event.workspaceId(), event.channelId());
    }

    /** Another API version replaced one the provider retired (a node started with a new configured version). */
    @EventHandler
    void on(ChannelApiVersionRecordedEvent event) {
        if (event.replacedRetired()) {
            release(event.workspaceId(), event.channelId());
        }
    }

    private void release(WorkspaceId workspace, ChannelId channel) {
        List<PublicationId> held = jdbc.query("""
                SELECT publication_id FROM publication_held WHERE workspace_id = ? AND channel_id = ?
                 ORDER BY requested_at, held_at, publication_id""",
                (rs, n) -> new PublicationId(rs.getString(1)), workspace.value(), channel.value());
        log.info("channel {} of {} works again: resuming {} held publication(s)", channel, workspace, held.size());
        for (PublicationId publication : held) {
            commands.sendAndWait(new ReleasePublicationCommand(publication, clock.instant()));
        }
    }
}
