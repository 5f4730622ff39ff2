package io.herald.query.channel;

import io.herald.contracts.channel.ApiVersionState;
import io.herald.contracts.channel.ApiVersionView;
import io.herald.contracts.channel.ChannelApiVersionExpiringEvent;
import io.herald.contracts.channel.ChannelApiVersionRecordedEvent;
import io.herald.contracts.channel.ChannelApiVersionRetiredEvent;
import io.herald.contracts.channel.ChannelAuthLostEvent;
import io.herald.contracts.channel.ChannelAuthRegainedEvent;
import io.herald.contracts.channel.ChannelCapabilitiesProbedEvent;
import io.herald.contracts.channel.ChannelConnectionConfiguredEvent;
import io.herald.contracts.channel.ChannelConnectionView;
import io.herald.contracts.channel.ChannelStatus;
import io.herald.contracts.channel.ChannelTokenExpiringEvent;
import io.herald.contracts.channel.ChannelTokenExpiryRecordedEvent;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.webhook.WebhookEventTypes;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Keeps {@code channel_connection_view} in step with the channel connection events. Idempotent like
 * the publication view: an event at or below the row's last applied sequence number is ignored.
 *
 * <p>A probe describes one version of the credentials. New credentials void the old probe's result
 * (shown as "not checked yet" until the next probe), and a probe of older credentials that arrives
 * late is not shown.
 */
@Component
@ProcessingGroup(ChannelViewProjection.PROCESSING_GROUP)
public class ChannelViewProjection {

    public static final String PROCESSING_GROUP = "channel-view";

    private static final Logger log = LoggerFactory.getLogger(ChannelViewProjection.class);

    private final ChannelViewRepository repository;
    private final List<ChannelStatusListener> listeners;

    public ChannelViewProjection(ChannelViewRepository repository) {
        this(repository, List.of());
    }

    @Autowired
    public ChannelViewProjection(ChannelViewRepository repository, List<ChannelStatusListener> listeners) {
        this.repository = repository;
        this.listeners = List.copyOf(listeners);
    }

    @EventHandler
    public void on(ChannelAuthLostEvent event, @SequenceNumber long sequence) {
        health(event.workspaceId(), event.channelId(), event.connectionId().value(), ChannelStatus.NEEDS_REAUTH,
                event.reason(), event.lostAt(), sequence, WebhookEventTypes.CHANNEL_NEEDS_REAUTH);
    }

    @EventHandler
    public void on(ChannelAuthRegainedEvent event, @SequenceNumber long sequence) {
        health(event.workspaceId(), event.channelId(), event.connectionId().value(), ChannelStatus.ACTIVE, null,
                event.regainedAt(), sequence, WebhookEventTypes.CHANNEL_REAUTHORIZED);
    }

    @EventHandler
    public void on(ChannelTokenExpiryRecordedEvent event, @SequenceNumber long sequence) {
        change(event.workspaceId(), event.channelId(), event.connectionId().value(), sequence, null,
                () -> repository.saveExpiry(event.workspaceId(), event.channelId(), event.expiresAt(), sequence));
    }

    @EventHandler
    public void on(ChannelTokenExpiringEvent event, @SequenceNumber long sequence) {
        change(event.workspaceId(), event.channelId(), event.connectionId().value(), sequence,
                WebhookEventTypes.CHANNEL_TOKEN_EXPIRING,
                () -> repository.saveExpiry(event.workspaceId(), event.channelId(), event.expiresAt(), sequence));
    }

    @EventHandler
    public void on(ChannelApiVersionRecordedEvent event, @SequenceNumber long sequence) {
        change(event.workspaceId(), event.channelId(), event.connectionId().value(), sequence, null,
                () -> repository.saveApiVersion(event.workspaceId(), event.channelId(), new ApiVersionView(
                        event.version(), event.sunsetAt(),
                        event.known() ? ApiVersionState.CURRENT : ApiVersionState.UNKNOWN), sequence));
    }

    @EventHandler
    public void on(ChannelApiVersionExpiringEvent event, @SequenceNumber long sequence) {
        change(event.workspaceId(), event.channelId(), event.connectionId().value(), sequence,
                WebhookEventTypes.CHANNEL_VERSION_EXPIRING,
                () -> repository.saveApiVersion(event.workspaceId(), event.channelId(), new ApiVersionView(
                        event.version(), event.sunsetAt(), ApiVersionState.EXPIRING), sequence));
    }

    @EventHandler
    public void on(ChannelApiVersionRetiredEvent event, @SequenceNumber long sequence) {
        change(event.workspaceId(), event.channelId(), event.connectionId().value(), sequence, null,
                () -> repository.saveApiVersionRetired(event.workspaceId(), event.channelId(), event.version(),
                        sequence));
    }

    private void health(WorkspaceId workspace, ChannelId channel, String connectionId, ChannelStatus status,
                        String reason, Instant at, long sequence, String type) {
        change(workspace, channel, connectionId, sequence, type,
                () -> repository.saveStatus(workspace, channel, status, reason, at, sequence));
    }

    /** Applies a health change once; listeners hear of it with the view as it is afterwards. */
    private void change(WorkspaceId workspace, ChannelId channel, String connectionId, long sequence, String type,
                        Runnable save) {
        Optional<ChannelViewRepository.Row> stored = repository.find(workspace, channel);
        if (stored.isEmpty() || sequence <= stored.get().lastSequence()) {
            log.debug("channel {}: event at sequence {} already applied, or no row", connectionId, sequence);
            return;
        }
        save.run();
        if (type == null) {
            return;
        }
        Optional<ChannelConnectionView> view = repository.findView(workspace, channel);
        for (ChannelStatusListener listener : listeners) {
            view.ifPresent(v -> listener.changed(type, v, connectionId, sequence));
        }
    }

    @EventHandler
    public void on(ChannelConnectionConfiguredEvent event, @SequenceNumber long sequence) {
        Optional<ChannelViewRepository.Row> stored = repository.find(event.workspaceId(), event.channelId());
        if (stored.isPresent() && sequence <= stored.get().lastSequence()) {
            log.debug("channel {}: event at sequence {} already applied", event.connectionId(), sequence);
            return;
        }
        boolean sameCredentials = stored.isPresent()
                && stored.get().credentialVersion() == event.credentialVersion();
        ChannelConnectionView.Capabilities capabilities = sameCredentials ? stored.get().capabilities() : null;
        repository.save(new ChannelViewRepository.Row(event.connectionId().value(), event.workspaceId(),
                event.channelId(), event.type(), event.settings(), event.autoReattemptAfterNotFound(),
                event.credentialVersion(), capabilities, sameCredentials ? stored.get().retrySafety() : null,
                sameCredentials ? stored.get().probedAt() : null, event.configuredAt(), sequence, event.verifyAfterSuccess()));
    }

    @EventHandler
    public void on(ChannelCapabilitiesProbedEvent event, @SequenceNumber long sequence) {
        Optional<ChannelViewRepository.Row> stored = repository.find(event.workspaceId(), event.channelId());
        if (stored.isEmpty()) {
            // a connection's stream starts with its configuration, applied before any probe
            log.warn("channel {} has no view row; probe at sequence {} not applied", event.connectionId(), sequence);
            return;
        }
        ChannelViewRepository.Row row = stored.get();
        if (sequence <= row.lastSequence()) {
            log.debug("channel {}: event at sequence {} already applied", event.connectionId(), sequence);
            return;
        }
        if (event.credentialVersion() < row.credentialVersion()) {
            log.info("channel {}: probe of credential version {} ignored, current is {}",
                    event.connectionId(), event.credentialVersion(), row.credentialVersion());
            repository.save(new ChannelViewRepository.Row(row.connectionId(), row.workspaceId(), row.channelId(),
                    row.type(), row.settings(), row.autoReattempt(), row.credentialVersion(), row.capabilities(),
                    row.retrySafety(), row.probedAt(), row.updatedAt(), sequence, row.verifyAfterSuccess()));
            return;
        }
        repository.save(new ChannelViewRepository.Row(row.connectionId(), row.workspaceId(), row.channelId(),
                row.type(), row.settings(), row.autoReattempt(), event.credentialVersion(),
                new ChannelConnectionView.Capabilities(event.publish(), event.reconcile()), event.retrySafety(),
                event.probedAt(), event.probedAt(), sequence, row.verifyAfterSuccess()));
    }

    /** Before a rebuild from the history: the history writes every row again. */
    @ResetHandler
    public void reset() {
        log.info("clearing channel_connection_view for a rebuild");
        repository.deleteAll();
    }
}
