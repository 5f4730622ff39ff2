package io.herald.command.channel;

import io.herald.adapters.outbound.OutboundGuard;
import io.herald.command.health.TokenExpiryWarnings;
import io.herald.command.publishing.VerificationProperties;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.port.ChannelSecrets;
import io.herald.contracts.channel.ChannelConnectionId;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.ConfigureChannelConnectionCommand;
import io.herald.contracts.channel.RecordTokenExpiryCommand;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Creates and changes channel connections: the encrypted credentials row and the
 * {@code ChannelConnectionConfigured} event are written in one short transaction, after the
 * provider's check of a new or changed connection, which runs outside any transaction. What a connection of a
 * type needs, and which of its fields point it somewhere new, is its channel plug-in's to say.
 */
@Service
public class ChannelConnectionService {

    private static final Logger log = LoggerFactory.getLogger(ChannelConnectionService.class);
    /** How long a {@code PUT} waits for the provider's check of a new or changed connection. */
    static final Duration VERIFY_PATIENCE = Duration.ofSeconds(20);
    /** How often a {@code PUT} is read again when its connection changed while it was being checked. */
    private static final int ROUNDS = 2;

    private final ChannelConnectionStore store;
    private final ChannelPlugins plugins;
    private final CommandGateway commands;
    private final OutboundGuard outbound;
    private final TokenExpiryWarnings expiryWarnings;
    private final Clock clock;
    private final VerificationProperties verification;
    private final TransactionTemplate transactions;
    private final ConnectionCheckSlots checkSlots;

    public ChannelConnectionService(ChannelConnectionStore store, ChannelPlugins plugins, CommandGateway commands,
                                    OutboundGuard outbound, TokenExpiryWarnings expiryWarnings, Clock clock,
                                    VerificationProperties verification, PlatformTransactionManager transactionManager,
                                    ChannelCacheProperties channels) {
        this.store = store;
        this.transactions = new TransactionTemplate(transactionManager);
        this.checkSlots = new ConnectionCheckSlots(channels.maxConcurrentChecks());
        this.verification = verification;
        this.plugins = plugins;
        this.expiryWarnings = expiryWarnings;
        this.commands = commands;
        this.outbound = outbound;
        this.clock = clock;
    }

    /** What a configure call did. */
    public record Configured(boolean created, ChannelType type, ChannelSettings settings, boolean autoReattempt,
                             long credentialVersion, boolean verifyAfterSuccess) {
    }

    public Optional<ChannelType> typeOf(WorkspaceId workspace, ChannelId channel) {
        return store.typeOf(workspace, channel);
    }

    /**
     * Stores a connection as a {@code PUT} describes it. A new or changed one (settings or secrets)
     * is first checked with its provider ({@link ChannelPlugin#verify}, in a {@link ConnectionCheckSlots}
     * slot) while no transaction is open and no database connection or row lock is held: a slow
     * provider ties up no pooled connection. Then one short transaction locks the row, makes sure it
     * is still as it was read before the check, and writes the row and the event. When another
     * request changed the connection meanwhile, the request is read again against what is stored
     * now (its check is made again only if that gives other settings or secrets than the ones
     * checked); a second such change is {@code concurrent_modification}, with nothing stored.
     *
     * @throws ConnectionCheckSlots.Busy when the workspace's check slot or the node's are all taken
     */
    public Configured configure(WorkspaceId workspace, ChannelId channel, ChannelConnectionRequest request,
                                String actor) {
        ChannelPlugin plugin = plugins.find(request.type()).orElseThrow(() -> HeraldRejection.invalid(List.of(
                new FieldViolation("type", "must be " + plugins.typeList()))));
        ChannelPlugin.Connection verified = null;
        for (int round = 1; ; round++) {
            // read without a transaction: a single statement, its connection back in the pool at once
            Plan plan = plan(plugin, workspace, channel, request, store.load(workspace, channel));
            if (plan.changed() && !plan.next().equals(verified)) {
                // the provider's word on what the admin typed, before anything is stored
                ChannelConnection candidate = new ChannelConnection(workspace, channel, plan.type(),
                        plan.next().settings(), plan.next().secrets(), plan.autoReattempt(), plan.verify());
                if (checksWithProvider(plugin)) {
                    try (ConnectionCheckSlots.Slot slot = checkSlots.take(workspace)) {
                        verifyWithProvider(plugin, candidate);
                    }
                } else {
                    verifyWithProvider(plugin, candidate);
                }
                verified = plan.next();
            }
            Optional<Configured> written = transactions.execute(status -> write(workspace, channel, request, actor,
                    plan));
            if (written != null && written.isPresent()) {
                return written.get();
            }
            if (round >= ROUNDS) {
                throw new HeraldRejection(ErrorCode.CONCURRENT_MODIFICATION, "channel " + channel + " was changed "
                        + "by other requests while this one was being stored; nothing was stored, send it again");
            }
            log.info("channel {} of workspace {} changed while its new configuration was checked; read again",
                    channel, workspace);
        }
    }

    /**
     * Whether the plug-in has a check of its own: one that keeps {@link ChannelPlugin#verify}'s
     * default answers at once and takes no slot (so an OAuth connect is never refused for a slot).
     */
    private static boolean checksWithProvider(ChannelPlugin plugin) {
        try {
            return plugin.getClass().getMethod("verify", ChannelConnection.class).getDeclaringClass()
                    != ChannelPlugin.class;
        } catch (NoSuchMethodException e) {
            return true;
        }
    }

    /** What a {@code PUT} makes of the connection as read ({@code existing}). */
    private record Plan(Optional<ChannelConnectionStore.StoredConnection> existing, ChannelType type,
                        ChannelPlugin.Connection next, boolean autoReattempt, boolean verify, boolean changed) {

        long version() {
            long stored = existing.map(ChannelConnectionStore.StoredConnection::credentialVersion).orElse(0L);
            return changed ? stored + 1 : stored;
        }
    }

    private Plan plan(ChannelPlugin plugin, WorkspaceId workspace, ChannelId channel,
                      ChannelConnectionRequest request, Optional<ChannelConnectionStore.StoredConnection> existing) {
        ChannelType type = plugin.type();
        if (existing.isPresent() && !existing.get().type().equals(type)) {
            throw new HeraldRejection(ErrorCode.CHANNEL_TYPE_CHANGED, "channel " + channel + " is a "
                    + existing.get().type().wireName() + " connection; use a new channel id for a "
                    + type.wireName() + " connection");
        }
        ChannelPlugin.Connection stored = existing
                .map(e -> new ChannelPlugin.Connection(e.settings(), store.decrypt(e))).orElse(null);
        ChannelPlugin.Connection next = plugin.connect(request.channelFields(), stored);
        plugin.destinations(next.settings()).forEach((field, url) -> outbound.check(url, workspace.value()).ifPresent(reason -> {
            throw new HeraldRejection(ErrorCode.DESTINATION_NOT_ALLOWED, field + " is not allowed: " + reason);
        }));
        boolean autoReattempt = Boolean.TRUE.equals(request.autoReattemptAfterNotFound());
        // not given: a connection keeps what it had, a new one gets the default
        boolean verify = request.verifyAfterSuccess() != null ? request.verifyAfterSuccess()
                : existing.map(ChannelConnectionStore.StoredConnection::verifyAfterSuccess)
                        .orElse(verification.enabled());
        boolean changed = stored == null
                || !Objects.equals(stored.settings(), next.settings())
                || !Objects.equals(stored.secrets(), next.secrets());
        return new Plan(existing, type, next, autoReattempt, verify, changed);
    }

    /**
     * The write of a planned configuration, in its own short transaction: empty (nothing written)
     * when the row is no longer as the plan read it.
     */
    private Optional<Configured> write(WorkspaceId workspace, ChannelId channel, ChannelConnectionRequest request,
                                       String actor, Plan plan) {
        Optional<ChannelConnectionStore.StoredConnection> now = store.loadForUpdate(workspace, channel);
        if (!sameState(plan.existing(), now)) {
            return Optional.empty();
        }
        ChannelType type = plan.type();
        ChannelSettings settings = plan.next().settings();
        ChannelSecrets secrets = plan.next().secrets();
        boolean autoReattempt = plan.autoReattempt();
        boolean verify = plan.verify();
        boolean changed = plan.changed();
        long version = plan.version();
        Optional<ChannelConnectionStore.StoredConnection> existing = plan.existing();
        if (existing.isEmpty()) {
            if (!store.create(workspace, channel, type, settings, version, secrets, autoReattempt, verify,
                    clock.instant())) {
                return Optional.empty();
            }
        } else if (changed || existing.get().autoReattemptAfterNotFound() != autoReattempt
                || existing.get().verifyAfterSuccess() != verify) {
            store.save(workspace, channel, type, settings, version, secrets, autoReattempt, verify, clock.instant());
        }
        commands.sendAndWait(new ConfigureChannelConnectionCommand(ChannelConnectionId.of(workspace, channel),
                workspace, channel, type, settings, version, autoReattempt, actor, clock.instant(), verify));
        // new credentials have the expiry this request gives (none when it gives none); the same ones keep theirs
        if (request.accessTokenExpiresAt() != null || changed) {
            ChannelConnectionId id = ChannelConnectionId.of(workspace, channel);
            commands.sendAndWait(new RecordTokenExpiryCommand(id, version, request.accessTokenExpiresAt(),
                    clock.instant()));
            expiryWarnings.warnIfDue(id, request.accessTokenExpiresAt());
        }
        log.info("channel {} of workspace {} configured as {} (credential version {})", channel, workspace,
                type.wireName(), version);
        return Optional.of(new Configured(existing.isEmpty(), type, settings, autoReattempt, version, verify));
    }

    /**
     * Whether the row is as it was read: its credentials change only under a new credential version,
     * so the version, the settings and the two switches say that the stored secrets are the same too.
     */
    private static boolean sameState(Optional<ChannelConnectionStore.StoredConnection> before,
                                     Optional<ChannelConnectionStore.StoredConnection> now) {
        if (before.isEmpty() || now.isEmpty()) {
            return before.isEmpty() && now.isEmpty();
        }
        ChannelConnectionStore.StoredConnection was = before.get();
        ChannelConnectionStore.StoredConnection is = now.get();
        return was.type().equals(is.type()) && was.credentialVersion() == is.credentialVersion()
                && Objects.equals(was.settings(), is.settings())
                && was.autoReattemptAfterNotFound() == is.autoReattemptAfterNotFound()
                && was.verifyAfterSuccess() == is.verifyAfterSuccess();
    }

    /**
     * The plug-in's check of a new or changed connection with its provider: a refusal is thrown, and a
     * provider that does not answer within {@link #VERIFY_PATIENCE} is {@code unavailable}; either
     * way nothing is stored.
     */
    private static void verifyWithProvider(ChannelPlugin plugin, ChannelConnection candidate) {
        String type = plugin.type().wireName();
        Optional<HeraldRejection> refused;
        try {
            refused = plugin.verify(candidate).get(VERIFY_PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new HeraldRejection(ErrorCode.UNAVAILABLE, "the " + type + " provider did not answer the check "
                    + "of this connection within " + VERIFY_PATIENCE.toSeconds() + " s; nothing was stored, try again");
        } catch (ExecutionException e) {
            log.warn("the check of a {} connection failed: {}", type,
                    e.getCause() == null ? "?" : e.getCause().getClass().getSimpleName());
            throw new HeraldRejection(ErrorCode.UNAVAILABLE, "the " + type + " connection could not be checked with "
                    + "its provider; nothing was stored, try again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HeraldRejection(ErrorCode.UNAVAILABLE, "the check of this " + type + " connection was "
                    + "interrupted; nothing was stored");
        }
        if (refused.isPresent()) {
            throw refused.get();
        }
    }

    /**
     * Turns the verification after success on or off for a stored connection, keeping its settings
     * and credentials.
     *
     * @return whether the connection exists
     */
    @Transactional
    public boolean verifyAfterSuccess(WorkspaceId workspace, ChannelId channel, boolean verify, String actor) {
        Optional<ChannelConnectionStore.StoredConnection> existing = store.loadForUpdate(workspace, channel);
        if (existing.isEmpty()) {
            return false;
        }
        ChannelConnectionStore.StoredConnection stored = existing.get();
        if (stored.verifyAfterSuccess() != verify) {
            store.save(workspace, channel, stored.type(), stored.settings(), stored.credentialVersion(),
                    store.decrypt(stored), stored.autoReattemptAfterNotFound(), verify, clock.instant());
        }
        commands.sendAndWait(new ConfigureChannelConnectionCommand(ChannelConnectionId.of(workspace, channel),
                workspace, channel, stored.type(), stored.settings(), stored.credentialVersion(),
                stored.autoReattemptAfterNotFound(), actor, clock.instant(), verify));
        return true;
    }

    /**
     * A refreshed token: the connection's secrets replaced under a new credential version, with the
     * new expiry, as a reconnect by {@code actor} would, unless the connection was reconfigured
     * since {@code readVersion} (then the refresh is dropped: the new credentials win).
     *
     * @return whether the renewed secrets were stored
     */
    @Transactional
    public boolean renewSecrets(WorkspaceId workspace, ChannelId channel, long readVersion, ChannelSecrets secrets,
                                java.time.Instant expiresAt, String actor) {
        Optional<ChannelConnectionStore.StoredConnection> existing = store.loadForUpdate(workspace, channel);
        if (existing.isEmpty() || existing.get().credentialVersion() != readVersion) {
            return false;
        }
        ChannelConnectionStore.StoredConnection stored = existing.get();
        long version = readVersion + 1;
        store.save(workspace, channel, stored.type(), stored.settings(), version, secrets,
                stored.autoReattemptAfterNotFound(), stored.verifyAfterSuccess(), clock.instant());
        ChannelConnectionId id = ChannelConnectionId.of(workspace, channel);
        commands.sendAndWait(new ConfigureChannelConnectionCommand(id, workspace, channel, stored.type(),
                stored.settings(), version, stored.autoReattemptAfterNotFound(), actor, clock.instant(),
                stored.verifyAfterSuccess()));
        commands.sendAndWait(new RecordTokenExpiryCommand(id, version, expiresAt, clock.instant()));
        log.info("channel {} of workspace {}: token refreshed, valid until {} (credential version {})", channel,
                workspace, expiresAt, version);
        return true;
    }
}
