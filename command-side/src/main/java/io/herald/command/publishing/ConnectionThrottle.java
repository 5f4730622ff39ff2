package io.herald.command.publishing;

import io.herald.adapters.port.ChannelPlugins;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A rate limit belongs to the connection, not to one publication (docs/architecture.md#connection-health):
 * an attempt starts only within the connection's budget ({@link ConnectionBudgets}, rows shared by
 * every node), and once a provider says "wait", no attempt on that connection starts before the
 * time it gave, on any node. This node also remembers that time, so its own next starts need no read.
 */
@Component
public class ConnectionThrottle {

    private static final Logger log = LoggerFactory.getLogger(ConnectionThrottle.class);

    private final ConcurrentMap<String, Instant> notBefore = new ConcurrentHashMap<>();
    private final ConnectionBudgets budgets;

    /** Without budgets: the provider's "wait" is remembered by this node only (tests, tools). */
    public ConnectionThrottle() {
        this.budgets = null;
    }

    @Autowired
    public ConnectionThrottle(JdbcTemplate jdbc, ChannelPlugins plugins, java.time.Clock clock) {
        this.budgets = new ConnectionBudgets(jdbc, plugins);
        // what the adapters read from the providers' usage headers goes into the shared budget rows
        plugins.usage().listen((connection, usage) -> budgets.observe(connection.workspaceId(),
                connection.channelId(), connection.type(), usage, clock.instant()));
    }

    public Instant notBefore(WorkspaceId workspace, ChannelId channel) {
        return notBefore.getOrDefault(key(workspace, channel), Instant.MIN);
    }

    /**
     * Takes one call from the connection's budget for an attempt about to start, in the caller's
     * transaction.
     *
     * @return empty when it may start now, else when the budget allows it
     */
    public Optional<Instant> take(WorkspaceId workspace, ChannelId channel, ChannelType type, Instant now) {
        return budgets == null ? Optional.empty() : budgets.take(workspace, channel, type, now);
    }

    public void holdUntil(WorkspaceId workspace, ChannelId channel, Instant until) {
        holdUntil(workspace, channel, until, null);
    }

    /**
     * A rate-limit answer to a call answered at {@code answeredAt} (null: only the wait): besides
     * the wait, the budget's windows under way then are spent.
     */
    public void holdUntil(WorkspaceId workspace, ChannelId channel, Instant until, Instant answeredAt) {
        notBefore.merge(key(workspace, channel), until, (a, b) -> a.isAfter(b) ? a : b);
        if (budgets != null) {
            try {
                if (answeredAt != null) {
                    budgets.refused(workspace, channel, until, answeredAt);
                } else {
                    budgets.block(workspace, channel, until);
                }
            } catch (RuntimeException e) {
                // this node still waits; the next refusal tells the others again
                log.warn("channel {} of {}: could not share the provider's wait until {}: {}", channel, workspace,
                        until, e.toString());
            }
        }
    }

    private static String key(WorkspaceId workspace, ChannelId channel) {
        return workspace.value() + "/" + channel.value();
    }
}
