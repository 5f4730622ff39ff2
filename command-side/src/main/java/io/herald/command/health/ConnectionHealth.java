package io.herald.command.health;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Whether a connection's credentials were found expired or revoked, as the publication asks it when
 * an attempt is about to start. Read from the {@code channel_auth_lost} row, shared by all nodes;
 * the row is share-locked until the start commits, so a re-authorisation committing meanwhile waits
 * for it and then sees the held publication (nothing held is missed by the release).
 */
@Component
public class ConnectionHealth {

    /** The provider's reason when the connection needs new credentials. */
    @FunctionalInterface
    public interface Lookup {
        Optional<String> authLost(WorkspaceId workspace, ChannelId channel);
    }

    private final Lookup lookup;

    @Autowired
    public ConnectionHealth(JdbcTemplate jdbc) {
        this((workspace, channel) -> oncePerTransaction(workspace, channel, () -> {
            List<String> reasons = jdbc.queryForList("""
                    SELECT reason FROM channel_auth_lost WHERE workspace_id = ? AND channel_id = ? FOR SHARE""",
                    String.class, workspace.value(), channel.value());
            return reasons.stream().findFirst();
        }));
    }

    /**
     * A batch of starts asks once per connection: the row read is share-locked until the batch
     * commits, so the answer cannot change within it.
     */
    private static Optional<String> oncePerTransaction(WorkspaceId workspace, ChannelId channel,
                                                       Supplier<Optional<String>> read) {
        if (!CurrentUnitOfWork.isStarted()) {
            return read.get();
        }
        Map<String, Optional<String>> known = CurrentUnitOfWork.get().root().getOrComputeResource(
                ConnectionHealth.class.getName(), key -> new HashMap<>());
        return known.computeIfAbsent(workspace.value() + "/" + channel.value(), key -> read.get());
    }

    public ConnectionHealth(Lookup lookup) {
        this.lookup = lookup;
    }

    /** For tests and tools: every connection works. */
    public static ConnectionHealth allActive() {
        return new ConnectionHealth((workspace, channel) -> Optional.empty());
    }

    public Optional<String> authLost(WorkspaceId workspace, ChannelId channel) {
        return lookup.authLost(workspace, channel);
    }

    /** The publication view's {@code heldReason} (docs/architecture.md#connection-health). */
    public static String heldReason(String providerReason) {
        return "the connection needs new credentials: " + providerReason;
    }
}
