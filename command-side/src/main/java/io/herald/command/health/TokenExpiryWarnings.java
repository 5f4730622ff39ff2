package io.herald.command.health;

import io.herald.contracts.channel.ChannelConnectionId;
import io.herald.contracts.channel.WarnTokenExpiringCommand;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Warns of tokens whose known expiry is within {@code herald.channels.expiry-warning}: when the
 * expiry is recorded, and on a recurring sweep as time passes. The connection warns once per
 * expiry, so two nodes sweeping at once, or a sweep after the first warning, add nothing.
 */
@Component
@EnableConfigurationProperties(ConnectionHealthProperties.class)
public class TokenExpiryWarnings {

    private static final Logger log = LoggerFactory.getLogger(TokenExpiryWarnings.class);
    private static final int BATCH = 100;

    private final JdbcTemplate jdbc;
    private final CommandGateway commands;
    private final ConnectionHealthProperties properties;
    private final Clock clock;

    public TokenExpiryWarnings(JdbcTemplate jdbc, CommandGateway commands, ConnectionHealthProperties properties,
                               Clock clock) {
        this.jdbc = jdbc;
        this.commands = commands;
        this.properties = properties;
        this.clock = clock;
    }

    public ConnectionHealthProperties properties() {
        return properties;
    }

    /** Right after an expiry was recorded: one that is already close is warned of at once. */
    public void warnIfDue(ChannelConnectionId connection, Instant expiresAt) {
        Instant now = clock.instant();
        if (expiresAt != null && !expiresAt.isAfter(now.plus(properties.expiryWarning()))) {
            warn(connection, expiresAt, now);
        }
    }

    /** @return how many connections were warned */
    public int sweep() {
        Instant now = clock.instant();
        List<Object[]> due = jdbc.query("""
                SELECT connection_id, expires_at FROM channel_token_expiry
                 WHERE NOT warned AND expires_at <= ? ORDER BY expires_at LIMIT ?""",
                (rs, n) -> new Object[] {rs.getString(1), rs.getTimestamp(2).toInstant()},
                Timestamp.from(now.plus(properties.expiryWarning())), BATCH);
        int warned = 0;
        for (Object[] row : due) {
            warned += warn(new ChannelConnectionId((String) row[0]), (Instant) row[1], now) ? 1 : 0;
        }
        return warned;
    }

    private boolean warn(ChannelConnectionId connection, Instant expiresAt, Instant now) {
        boolean first = Boolean.TRUE.equals(commands.sendAndWait(new WarnTokenExpiringCommand(connection, expiresAt,
                now)));
        if (first) {
            log.info("the token of {} expires at {}: warned", connection, expiresAt);
        }
        return first;
    }
}
