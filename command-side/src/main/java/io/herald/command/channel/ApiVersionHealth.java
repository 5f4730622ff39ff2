package io.herald.command.channel;

import io.herald.adapters.port.ApiVersions;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.command.health.ConnectionHealthProperties;
import io.herald.contracts.channel.ChannelConnectionId;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RecordApiVersionCommand;
import io.herald.contracts.channel.RecordApiVersionRetiredCommand;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The provider API version of each connection (docs/architecture.md#connection-health), as its channel's
 * plug-in declares it: recorded on the connection when a node starts, at every probe and on a
 * recurring sweep; warned of {@code herald.channels.version-warning} before its sunset; retired when
 * the provider says so. The version is configuration, so it changes when a node restarts with a new
 * one: that start records it, and a connection whose old version was retired resumes its held
 * publications.
 */
@Component
public class ApiVersionHealth {

    private static final Logger log = LoggerFactory.getLogger(ApiVersionHealth.class);

    private final JdbcTemplate jdbc;
    private final ChannelPlugins plugins;
    private final CommandGateway commands;
    private final ConnectionHealthProperties properties;
    private final Clock clock;

    public ApiVersionHealth(JdbcTemplate jdbc, ChannelPlugins plugins, CommandGateway commands,
                            ConnectionHealthProperties properties, Clock clock) {
        this.jdbc = jdbc;
        this.plugins = plugins;
        this.commands = commands;
        this.properties = properties;
        this.clock = clock;
    }

    /** Every connection of a channel with versions; on start, so a changed configuration takes effect at once. */
    @EventListener(ApplicationReadyEvent.class)
    public int sweep() {
        List<Object[]> connections = jdbc.query("SELECT workspace_id, channel_id, channel_type FROM channel_connection",
                (rs, n) -> new Object[] {rs.getString(1), rs.getString(2), rs.getString(3)});
        int warned = 0;
        for (Object[] row : connections) {
            try {
                warned += record(new WorkspaceId((String) row[0]), new ChannelId((String) row[1]),
                        ChannelType.of((String) row[2])) ? 1 : 0;
            } catch (RuntimeException e) {
                // the next sweep records it; one connection must not stop the others' warnings
                log.warn("channel {} of {}: API version not recorded: {}", row[1], row[0], e.toString());
            }
        }
        return warned;
    }

    /** @return whether the connection warned of its version's sunset now */
    public boolean record(WorkspaceId workspace, ChannelId channel, ChannelType type) {
        Optional<ApiVersions> versions = plugins.find(type).flatMap(ChannelPlugin::apiVersions);
        if (versions.isEmpty()) {
            return false;
        }
        ApiVersions v = versions.get();
        Instant sunset = v.sunsetAt().orElse(null);
        Instant warnFrom = sunset == null ? null : sunset.minus(properties.versionWarning());
        boolean warned = Boolean.TRUE.equals(commands.sendAndWait(new RecordApiVersionCommand(
                ChannelConnectionId.of(workspace, channel), v.configured(), sunset, v.known(), warnFrom,
                clock.instant())));
        if (warned) {
            log.warn("channel {} of {}: API version {} reaches its sunset at {}; update {}", channel, workspace,
                    v.configured(), sunset, v.property());
        }
        return warned;
    }

    /**
     * The provider answered that it no longer serves {@code version}: the connection's due
     * publications are held before any call from now on.
     */
    public void retired(WorkspaceId workspace, ChannelId channel, String version, String providerCode,
                        String reason) {
        try {
            boolean first = Boolean.TRUE.equals(commands.sendAndWait(new RecordApiVersionRetiredCommand(
                    ChannelConnectionId.of(workspace, channel), version, providerCode, reason, clock.instant())));
            if (first) {
                log.warn("channel {} of {}: the provider retired API version {}: its due publications are held",
                        channel, workspace, version);
            }
        } catch (RuntimeException e) {
            // the publication's own refusal is still recorded; the next refused call reports it again
            log.warn("channel {} of {}: could not record that API version {} is retired: {}", channel, workspace,
                    version, e.toString());
        }
    }
}
