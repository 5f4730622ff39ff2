package io.herald.command.publishing;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.springframework.stereotype.Component;

/**
 * A rate limit belongs to the connection, not to one publication: once a provider says "wait",
 * no attempt on that connection starts before the time it gave. Kept per node in memory; after a
 * restart the next refusal sets it again, and a refused attempt provably did not execute.
 */
@Component
public class ConnectionThrottle {

    private final ConcurrentMap<String, Instant> notBefore = new ConcurrentHashMap<>();

    public Instant notBefore(WorkspaceId workspace, ChannelId channel) {
        return notBefore.getOrDefault(key(workspace, channel), Instant.MIN);
    }

    public void holdUntil(WorkspaceId workspace, ChannelId channel, Instant until) {
        notBefore.merge(key(workspace, channel), until, (a, b) -> a.isAfter(b) ? a : b);
    }

    private static String key(WorkspaceId workspace, ChannelId channel) {
        return workspace.value() + "/" + channel.value();
    }
}
