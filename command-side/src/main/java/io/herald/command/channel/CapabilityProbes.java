package io.herald.command.channel;

import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelAdapters;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ChannelDirectory;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelConnectionId;
import io.herald.contracts.channel.RecordChannelCapabilitiesCommand;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Asks the provider what a connection's credentials allow (publish, read back) and records the
 * answer on the connection, so operators see it with its reason. Runs when a connection is
 * created or changed, on request, and when a publication's answer shows read-back stopped working.
 */
@Component
public class CapabilityProbes {

    private static final Logger log = LoggerFactory.getLogger(CapabilityProbes.class);

    private final ChannelDirectory directory;
    private final ChannelConnectionStore store;
    private final ChannelAdapters adapters;
    private final CommandGateway commands;
    private final Clock clock;

    public CapabilityProbes(ChannelDirectory directory, ChannelConnectionStore store, ChannelAdapters adapters,
                            CommandGateway commands, Clock clock) {
        this.directory = directory;
        this.store = store;
        this.adapters = adapters;
        this.commands = commands;
        this.clock = clock;
    }

    /** Probes the connection as stored now; the future holds what was recorded. */
    public CompletableFuture<Optional<CapabilityReport>> probe(WorkspaceId workspace, ChannelId channel) {
        Optional<ChannelConnection> connection = directory.find(workspace, channel);
        Optional<Long> version = store.load(workspace, channel)
                .map(ChannelConnectionStore.StoredConnection::credentialVersion);
        if (connection.isEmpty() || version.isEmpty()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        return adapters.forType(connection.get().type()).probe(connection.get())
                .thenApply(report -> {
                    record(workspace, channel, version.get(), report.publish(), report.reconcile());
                    return Optional.of(report);
                })
                .exceptionally(failure -> {
                    log.warn("probe of channel {} in {} failed: {}", channel, workspace, failure.toString());
                    return Optional.empty();
                });
    }

    /** A publication's answer showed that read-back no longer works for this connection. */
    public void readBackLost(WorkspaceId workspace, ChannelId channel, Capability reconcile) {
        store.load(workspace, channel).ifPresent(stored -> record(workspace, channel, stored.credentialVersion(),
                Capability.ok(), reconcile));
    }

    private void record(WorkspaceId workspace, ChannelId channel, long version, Capability publish,
                        Capability reconcile) {
        commands.sendAndWait(new RecordChannelCapabilitiesCommand(ChannelConnectionId.of(workspace, channel), version,
                publish, reconcile, clock.instant()));
        log.info("channel {} of {}: publish {}, read-back {}{}", channel, workspace,
                publish.available() ? "available" : "unavailable", reconcile.available() ? "available" : "unavailable",
                reconcile.available() ? "" : " (" + reconcile.reason() + ")");
    }
}
