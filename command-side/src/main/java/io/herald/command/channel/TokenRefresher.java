package io.herald.command.channel;

import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ChannelDirectory;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.port.TokenRefresh;
import io.herald.command.health.ConnectionHealthProperties;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Renews refreshable tokens before they lapse: every connection of a channel type with a
 * {@link TokenRefresh} whose known expiry is within {@code herald.channels.token-refresh-before}
 * is refreshed at the provider, and the new secrets are stored encrypted with their expiry
 * ({@link ChannelConnectionService#renewSecrets}). A token the provider finds too new, or an answer
 * that could not be used, is tried again on a later run; one the provider refuses as expired or
 * revoked turns the connection {@code NEEDS_REAUTH}, as a refused call would. A recurring task runs
 * it on one node at a time.
 */
@Component
public class TokenRefresher {

    private static final Logger log = LoggerFactory.getLogger(TokenRefresher.class);
    static final String ACTOR = "herald:token-refresh";
    private static final int BATCH = 100;
    private static final long ANSWER_SECONDS = 60;

    private final JdbcTemplate jdbc;
    private final ChannelPlugins plugins;
    private final ChannelDirectory directory;
    private final ChannelConnectionService connections;
    private final CapabilityProbes probes;
    private final ConnectionHealthProperties properties;
    private final Clock clock;

    public TokenRefresher(JdbcTemplate jdbc, ChannelPlugins plugins, ChannelDirectory directory,
                          ChannelConnectionService connections, CapabilityProbes probes,
                          ConnectionHealthProperties properties, Clock clock) {
        this.jdbc = jdbc;
        this.plugins = plugins;
        this.directory = directory;
        this.connections = connections;
        this.probes = probes;
        this.properties = properties;
        this.clock = clock;
    }

    public ConnectionHealthProperties properties() {
        return properties;
    }

    private record Due(WorkspaceId workspace, ChannelId channel, ChannelType type, long version, Instant expiresAt) {
    }

    /** @return how many tokens were renewed */
    public int sweep() {
        List<String> types = plugins.all().values().stream().filter(p -> p.tokenRefresh().isPresent())
                .map(p -> p.type().wireName()).toList();
        if (types.isEmpty()) {
            return 0;
        }
        Instant now = clock.instant();
        List<Due> due = jdbc.query("""
                SELECT c.workspace_id, c.channel_id, c.channel_type, c.credential_version, e.expires_at
                  FROM channel_token_expiry e
                  JOIN channel_connection c ON e.connection_id = 'chn_' || c.workspace_id || '/' || c.channel_id
                 WHERE e.expires_at <= ? AND c.channel_type IN (""" + String.join(", ", types.stream().map(t -> "?")
                .toList()) + ") ORDER BY e.expires_at LIMIT ?",
                (rs, n) -> new Due(new WorkspaceId(rs.getString(1)), new ChannelId(rs.getString(2)),
                        ChannelType.of(rs.getString(3)), rs.getLong(4), rs.getTimestamp(5).toInstant()),
                parameters(Timestamp.from(now.plus(properties.tokenRefreshBefore())), types));
        int renewed = 0;
        for (Due row : due) {
            try {
                renewed += refresh(row) ? 1 : 0;
            } catch (RuntimeException e) {
                log.warn("channel {} of {}: the token could not be refreshed, tried again later: {}", row.channel(),
                        row.workspace(), e.toString());
            }
        }
        return renewed;
    }

    private static Object[] parameters(Timestamp until, List<String> types) {
        Object[] parameters = new Object[types.size() + 2];
        parameters[0] = until;
        for (int i = 0; i < types.size(); i++) {
            parameters[i + 1] = types.get(i);
        }
        parameters[types.size() + 1] = BATCH;
        return parameters;
    }

    private boolean refresh(Due row) {
        Optional<ChannelConnection> connection = directory.find(row.workspace(), row.channel());
        Optional<TokenRefresh> refresh = plugins.find(row.type().wireName()).flatMap(ChannelPlugin::tokenRefresh);
        if (connection.isEmpty() || refresh.isEmpty()) {
            return false;
        }
        TokenRefresh.Result result;
        try {
            result = refresh.get().refresh(connection.get()).get(ANSWER_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            log.warn("channel {} of {}: no answer to the token refresh, tried again later", row.channel(),
                    row.workspace());
            return false;
        }
        if (result instanceof TokenRefresh.Result.Renewed renewed) {
            return connections.renewSecrets(row.workspace(), row.channel(), row.version(), renewed.secrets(),
                    renewed.expiresAt(), ACTOR);
        }
        if (result instanceof TokenRefresh.Result.Invalid invalid) {
            log.warn("channel {} of {}: the provider refused the token's refresh ({}): it needs new credentials",
                    row.channel(), row.workspace(), invalid.providerCode());
            probes.authLost(row.workspace(), row.channel(), invalid.providerCode(), invalid.reason());
            return false;
        }
        log.info("channel {} of {}: token expiring {} not refreshed yet: {}", row.channel(), row.workspace(),
                row.expiresAt(), result);
        return false;
    }
}
