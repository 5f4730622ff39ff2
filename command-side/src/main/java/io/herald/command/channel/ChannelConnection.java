package io.herald.command.channel;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelApiVersionExpiringEvent;
import io.herald.contracts.channel.ChannelApiVersionRecordedEvent;
import io.herald.contracts.channel.ChannelApiVersionRetiredEvent;
import io.herald.contracts.channel.ChannelAuthLostEvent;
import io.herald.contracts.channel.ChannelAuthRegainedEvent;
import io.herald.contracts.channel.ChannelCapabilitiesProbedEvent;
import io.herald.contracts.channel.ChannelConnectionConfiguredEvent;
import io.herald.contracts.channel.ChannelConnectionId;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelTokenExpiringEvent;
import io.herald.contracts.channel.ChannelTokenExpiryRecordedEvent;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.ConfigureChannelConnectionCommand;
import io.herald.contracts.channel.RecordApiVersionCommand;
import io.herald.contracts.channel.RecordApiVersionRetiredCommand;
import io.herald.contracts.channel.RecordChannelAuthLostCommand;
import io.herald.contracts.channel.RecordChannelCapabilitiesCommand;
import io.herald.contracts.channel.RecordTokenExpiryCommand;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.channel.WarnTokenExpiringCommand;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import java.util.Objects;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;
import org.axonframework.spring.stereotype.Aggregate;

/**
 * A workspace's connection to one Page, LinkedIn author or WordPress site: its settings and
 * what its credentials allow. The credentials themselves are never part of this history.
 */
@Aggregate
public class ChannelConnection {

    @AggregateIdentifier
    private ChannelConnectionId connectionId;
    private WorkspaceId workspaceId;
    private ChannelId channelId;
    private ChannelType type;
    private ChannelSettings settings;
    private long credentialVersion;
    private boolean autoReattemptAfterNotFound;
    private boolean verifyAfterSuccess;
    private Capability publish;
    private Capability reconcile;
    private RetrySafety retrySafety;
    /** Null while the credentials work; the provider's reason once they stopped (NEEDS_REAUTH). */
    private String authLostReason;
    private Instant tokenExpiresAt;
    /** The expiry already warned of: one warning per connection and expiry. */
    private Instant warnedExpiry;
    /** The provider API version last recorded, and the one whose sunset was warned of. */
    private String apiVersion;
    private String warnedVersion;
    /** The version the provider answered it no longer serves; null while none is. */
    private String retiredVersion;

    protected ChannelConnection() {
        // required by Axon
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    public void handle(ConfigureChannelConnectionCommand command) {
        if (connectionId != null && !type.equals(command.type())) {
            throw new HeraldRejection(ErrorCode.CHANNEL_TYPE_CHANGED, "channel " + channelId + " is a "
                    + type.wireName() + " connection; use a new channel id for a " + command.type().wireName()
                    + " connection");
        }
        boolean unchanged = connectionId != null
                && Objects.equals(settings, command.settings())
                && credentialVersion == command.credentialVersion()
                && autoReattemptAfterNotFound == command.autoReattemptAfterNotFound()
                && verifyAfterSuccess == command.verifyAfterSuccess();
        if (unchanged) {
            return;
        }
        apply(new ChannelConnectionConfiguredEvent(command.connectionId(), command.workspaceId(),
                command.channelId(), command.type(), command.settings(), command.credentialVersion(),
                command.autoReattemptAfterNotFound(), command.configuredBy(), command.configuredAt(),
                command.verifyAfterSuccess()));
    }

    /** A probe of older credentials, or one that found nothing new, changes nothing. */
    @CommandHandler
    public void handle(RecordChannelCapabilitiesCommand command) {
        if (command.credentialVersion() != credentialVersion) {
            return;
        }
        if (authLostReason != null && command.publish() != null && command.publish().available()) {
            apply(new ChannelAuthRegainedEvent(connectionId, workspaceId, channelId, credentialVersion,
                    command.probedAt()));
        }
        if (Objects.equals(publish, command.publish()) && Objects.equals(reconcile, command.reconcile())
                && retrySafety == command.retrySafety()) {
            return;
        }
        apply(new ChannelCapabilitiesProbedEvent(connectionId, workspaceId, channelId, command.credentialVersion(),
                command.publish(), command.reconcile(), command.retrySafety(), command.probedAt()));
    }

    /**
     * Expired or revoked credentials (Connection health). Only about the credentials in use now: a
     * refusal of older ones says nothing about the new ones, and a second refusal adds nothing.
     *
     * @return whether the connection turned NEEDS_REAUTH with this report
     */
    @CommandHandler
    public boolean handle(RecordChannelAuthLostCommand command) {
        if (command.credentialVersion() != credentialVersion || authLostReason != null) {
            return false;
        }
        apply(new ChannelAuthLostEvent(connectionId, workspaceId, channelId, credentialVersion, command.providerCode(),
                command.reason(), command.detectedAt()));
        return true;
    }

    @CommandHandler
    public void handle(RecordTokenExpiryCommand command) {
        if (command.credentialVersion() != credentialVersion || Objects.equals(tokenExpiresAt, command.expiresAt())) {
            return;
        }
        apply(new ChannelTokenExpiryRecordedEvent(connectionId, workspaceId, channelId, credentialVersion,
                command.expiresAt(), command.recordedAt()));
    }

    /** @return whether this is the first warning of that expiry */
    @CommandHandler
    public boolean handle(WarnTokenExpiringCommand command) {
        if (tokenExpiresAt == null || !tokenExpiresAt.equals(command.expiresAt())
                || tokenExpiresAt.equals(warnedExpiry)) {
            return false;
        }
        apply(new ChannelTokenExpiringEvent(connectionId, workspaceId, channelId, tokenExpiresAt,
                command.warnedAt()));
        return true;
    }

    /**
     * The API version this node sends for the connection (docs/architecture.md#connection-health): recorded when it
     * changed; a change away from a retired version resumes the held publications; a sunset within the
     * warning window is warned of once per version.
     *
     * @return whether the version's sunset was warned of with this command
     */
    @CommandHandler
    public boolean handle(RecordApiVersionCommand command) {
        if (!Objects.equals(apiVersion, command.version())) {
            apply(new ChannelApiVersionRecordedEvent(connectionId, workspaceId, channelId, command.version(),
                    command.sunsetAt(), command.known(),
                    retiredVersion != null && !retiredVersion.equals(command.version()), command.recordedAt()));
        }
        if (command.warnFrom() == null || command.recordedAt().isBefore(command.warnFrom())
                || command.version().equals(warnedVersion) || command.version().equals(retiredVersion)) {
            return false;
        }
        apply(new ChannelApiVersionExpiringEvent(connectionId, workspaceId, channelId, command.version(),
                command.sunsetAt(), command.recordedAt()));
        return true;
    }

    /** @return whether this report retired the version (a second report of the same one adds nothing) */
    @CommandHandler
    public boolean handle(RecordApiVersionRetiredCommand command) {
        if (command.version().equals(retiredVersion)) {
            return false;
        }
        apply(new ChannelApiVersionRetiredEvent(connectionId, workspaceId, channelId, command.version(),
                command.providerCode(), command.reason(), command.detectedAt()));
        return true;
    }

    @EventSourcingHandler
    void on(ChannelApiVersionRecordedEvent event) {
        apiVersion = event.version();
        if (event.replacedRetired()) {
            retiredVersion = null;
        }
    }

    @EventSourcingHandler
    void on(ChannelApiVersionExpiringEvent event) {
        warnedVersion = event.version();
    }

    @EventSourcingHandler
    void on(ChannelApiVersionRetiredEvent event) {
        retiredVersion = event.version();
    }

    @EventSourcingHandler
    void on(ChannelTokenExpiryRecordedEvent event) {
        tokenExpiresAt = event.expiresAt();
    }

    @EventSourcingHandler
    void on(ChannelTokenExpiringEvent event) {
        warnedExpiry = event.expiresAt();
    }

    @EventSourcingHandler
    void on(ChannelAuthLostEvent event) {
        authLostReason = event.reason();
    }

    @EventSourcingHandler
    void on(ChannelAuthRegainedEvent event) {
        authLostReason = null;
    }

    @EventSourcingHandler
    void on(ChannelConnectionConfiguredEvent event) {
        connectionId = event.connectionId();
        workspaceId = event.workspaceId();
        channelId = event.channelId();
        type = event.type();
        settings = event.settings();
        credentialVersion = event.credentialVersion();
        autoReattemptAfterNotFound = event.autoReattemptAfterNotFound();
        verifyAfterSuccess = event.verifyAfterSuccess();
        publish = null;
        reconcile = null;
    }

    @EventSourcingHandler
    void on(ChannelCapabilitiesProbedEvent event) {
        retrySafety = event.retrySafety();
        publish = event.publish();
        reconcile = event.reconcile();
    }
}
