package io.herald.command.health;

import io.herald.adapters.port.ApiVersions;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.contracts.channel.ChannelType;
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
 * Whether a connection's credentials were found expired or revoked, or its provider retired the API
 * version this node sends, as the publication asks it when an attempt is about to start. Read from
 * the {@code channel_auth_lost} and {@code channel_version_retired} rows, shared by all nodes; the
 * rows are share-locked until the start commits, so a re-authorisation or version change committing
 * meanwhile waits for it and then sees the held publication (nothing held is missed by the release).
 * A retired version holds only while it is the version this node is configured to send.
 */
@Component
public class ConnectionHealth {

    /** The provider's reason when the connection needs new credentials. */
    @FunctionalInterface
    public interface Lookup {
        Optional<String> authLost(WorkspaceId workspace, ChannelId channel);
    }

    /** Why the provider refuses the version this node sends for the connection, when it does. */
    @FunctionalInterface
    public interface VersionLookup {
        Optional<String> retired(WorkspaceId workspace, ChannelId channel, ChannelType type);
    }

    /**
     * Why the publications of a connection are held.
     *
     * @param heldReason the publication view's {@code heldReason}
     * @param code       {@code connection_needs_reauth} or {@code api_version}
     */
    public record Hold(String heldReason, String code) {
    }

    /** The code of a hold because the provider retired the API version Herald sends. */
    public static final String API_VERSION = "api_version";
    /** The code of a hold because the connection needs new credentials. */
    public static final String NEEDS_REAUTH = "connection_needs_reauth";

    private final Lookup lookup;
    private final VersionLookup versions;

    @Autowired
    public ConnectionHealth(JdbcTemplate jdbc, ChannelPlugins plugins) {
        this((workspace, channel) -> oncePerTransaction("auth", workspace, channel, () -> {
            List<String> reasons = jdbc.queryForList("""
                    SELECT reason FROM channel_auth_lost WHERE workspace_id = ? AND channel_id = ? FOR SHARE""",
                    String.class, workspace.value(), channel.value());
            return reasons.stream().findFirst();
        }), (workspace, channel, type) -> oncePerTransaction("version", workspace, channel, () -> {
            Optional<String> sent = plugins.find(type).flatMap(ChannelPlugin::apiVersions)
                    .map(ApiVersions::configured);
            if (sent.isEmpty()) {
                return Optional.empty();
            }
            List<String> reasons = jdbc.queryForList("""
                    SELECT reason FROM channel_version_retired
                     WHERE workspace_id = ? AND channel_id = ? AND version = ? FOR SHARE""",
                    String.class, workspace.value(), channel.value(), sent.get());
            return reasons.stream().findFirst();
        }));
    }

    /**
     * A batch of starts asks once per connection: the row read is share-locked until the batch
     * commits, so the answer cannot change within it.
     */
    private static Optional<String> oncePerTransaction(String what, WorkspaceId workspace, ChannelId channel,
                                                       Supplier<Optional<String>> read) {
        if (!CurrentUnitOfWork.isStarted()) {
            return read.get();
        }
        Map<String, Optional<String>> known = CurrentUnitOfWork.get().root().getOrComputeResource(
                ConnectionHealth.class.getName(), key -> new HashMap<>());
        return known.computeIfAbsent(what + ":" + workspace.value() + "/" + channel.value(), key -> read.get());
    }

    public ConnectionHealth(Lookup lookup) {
        this(lookup, (workspace, channel, type) -> Optional.empty());
    }

    public ConnectionHealth(Lookup lookup, VersionLookup versions) {
        this.lookup = lookup;
        this.versions = versions;
    }

    /** For tests and tools: every connection works. */
    public static ConnectionHealth allActive() {
        return new ConnectionHealth((workspace, channel) -> Optional.empty());
    }

    public Optional<String> authLost(WorkspaceId workspace, ChannelId channel) {
        return lookup.authLost(workspace, channel);
    }

    /** Why nothing may be sent on the connection now, if anything: its credentials first, then its API version. */
    public Optional<Hold> hold(WorkspaceId workspace, ChannelId channel, ChannelType type) {
        Optional<String> lost = authLost(workspace, channel);
        if (lost.isPresent()) {
            return Optional.of(new Hold(heldReason(lost.get()), NEEDS_REAUTH));
        }
        return versions.retired(workspace, channel, type).map(reason -> new Hold(reason, API_VERSION));
    }

    /** The publication view's {@code heldReason} (docs/architecture.md#connection-health). */
    public static String heldReason(String providerReason) {
        return "the connection needs new credentials: " + providerReason;
    }
}
