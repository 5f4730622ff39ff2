package io.herald.command.channel;

import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ChannelDirectory;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelConnectionId;
import io.herald.contracts.channel.RecordChannelAuthLostCommand;
import io.herald.contracts.channel.RecordChannelCapabilitiesCommand;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Asks the provider what a connection's credentials allow (publish, read back) and records the
 * answer on the connection, so operators see it with its reason. Runs when a connection is
 * created or changed, on request, and when a publication's answer shows read-back stopped working.
 *
 * <p>A probe calls a host the workspace chose, so it is bounded twice: it gives up after
 * {@link #TIME_LIMIT} whatever the adapter's own timeouts (a server that sends headers and then
 * never the body outlasts those), and a request runs one only with a {@link Slot} from
 * {@link #reserve}, at most {@value ProbeSlots#PER_WORKSPACE} per workspace at once.
 */
@Component
public class CapabilityProbes {

    private static final Logger log = LoggerFactory.getLogger(CapabilityProbes.class);

    static final Duration TIME_LIMIT = Duration.ofSeconds(5);

    private final ChannelDirectory directory;
    private final ChannelConnectionStore store;
    private final ChannelPlugins adapters;
    private final CommandGateway commands;
    private final Clock clock;
    private final ProbeSlots slots = new ProbeSlots();
    private final ApiVersionHealth versions;

    public CapabilityProbes(ChannelDirectory directory, ChannelConnectionStore store, ChannelPlugins adapters,
                            CommandGateway commands, Clock clock, ApiVersionHealth versions) {
        this.versions = versions;
        this.directory = directory;
        this.store = store;
        this.adapters = adapters;
        this.commands = commands;
        this.clock = clock;
    }

    /**
     * One of the workspace's probe slots, for a request that is about to probe; close it when the
     * probe's answer is in (the probe itself ends within {@link #TIME_LIMIT}).
     *
     * @throws ProbeSlots.TooManyProbes when the workspace already runs as many probes as allowed
     */
    public Slot reserve(WorkspaceId workspace) {
        return slots.take(workspace);
    }

    /**
     * Probes the connection as stored now; the future holds what was recorded, or, when the
     * provider did not answer within {@link #TIME_LIMIT}, an unavailable report that is not
     * recorded (a slow answer says nothing about the credentials).
     */
    public CompletableFuture<Optional<CapabilityReport>> probe(WorkspaceId workspace, ChannelId channel) {
        Optional<ChannelConnection> connection = directory.find(workspace, channel);
        Optional<Long> version = store.load(workspace, channel)
                .map(ChannelConnectionStore.StoredConnection::credentialVersion);
        if (connection.isEmpty() || version.isEmpty()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        return adapters.forType(connection.get().type()).probe(connection.get())
                .orTimeout(TIME_LIMIT.toMillis(), TimeUnit.MILLISECONDS)
                .thenApply(report -> {
                    if (report.authLost() != null) {
                        // before the capabilities: a failed probe never counts as re-authorisation
                        recordAuthLost(workspace, channel, version.get(), "probe", report.authLost());
                    }
                    record(workspace, channel, connection.get().type(), version.get(), report.publish(),
                            report.reconcile());
                    // the probe also says whether the API version it spoke nears its sunset
                    versions.record(workspace, channel, connection.get().type());
                    return Optional.of(report);
                })
                .exceptionally(failure -> {
                    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                    if (cause instanceof TimeoutException) {
                        log.warn("probe of channel {} in {}: no answer within {}", channel, workspace, TIME_LIMIT);
                        Capability late = Capability.unavailable("the provider did not answer the capability probe within "
                                + TIME_LIMIT.toSeconds() + " s");
                        return Optional.of(new CapabilityReport(late, late));
                    }
                    log.warn("probe of channel {} in {} failed: {}", channel, workspace, failure.toString());
                    return Optional.empty();
                });
    }

    /** How an unknown create on a connection of this type can be settled, given its read-back capability. */
    public RetrySafety retrySafety(ChannelType type, Capability reconcile) {
        return adapters.plugin(type).retrySafety(reconcile);
    }

    /** A taken probe slot of a workspace; closing it again does nothing. */
    @FunctionalInterface
    public interface Slot extends AutoCloseable {
        @Override
        void close();
    }

    /** A publication's answer showed that read-back no longer works for this connection. */
    public void readBackLost(WorkspaceId workspace, ChannelId channel, Capability reconcile) {
        store.load(workspace, channel).ifPresent(stored -> record(workspace, channel, stored.type(),
                stored.credentialVersion(), Capability.ok(), reconcile));
    }

    /**
     * A provider refused the connection's credentials as expired or revoked (connection health):
     * recorded against the credentials stored now; the connection ignores it once newer ones replaced them.
     */
    public void authLost(WorkspaceId workspace, ChannelId channel, String providerCode, String reason) {
        try {
            store.load(workspace, channel).ifPresent(stored -> recordAuthLost(workspace, channel,
                    stored.credentialVersion(), providerCode, reason));
        } catch (RuntimeException e) {
            // the publication's own refusal is still recorded; the next refused call reports it again
            log.warn("channel {} of {}: could not record that its credentials were refused: {}", channel, workspace,
                    e.toString());
        }
    }

    private void recordAuthLost(WorkspaceId workspace, ChannelId channel, long version, String providerCode,
                                String reason) {
        boolean lost = commands.sendAndWait(new RecordChannelAuthLostCommand(ChannelConnectionId.of(workspace,
                channel), version, providerCode, reason, clock.instant()));
        if (lost) {
            log.warn("channel {} of {} needs new credentials ({}): its due publications are held", channel,
                    workspace, providerCode);
        }
    }

    private void record(WorkspaceId workspace, ChannelId channel, ChannelType type, long version, Capability publish,
                        Capability reconcile) {
        commands.sendAndWait(new RecordChannelCapabilitiesCommand(ChannelConnectionId.of(workspace, channel), version,
                publish, reconcile, retrySafety(type, reconcile), clock.instant()));
        log.info("channel {} of {}: publish {}, read-back {}{}", channel, workspace,
                publish.available() ? "available" : "unavailable", reconcile.available() ? "available" : "unavailable",
                reconcile.available() ? "" : " (" + reconcile.reason() + ")");
    }
}
