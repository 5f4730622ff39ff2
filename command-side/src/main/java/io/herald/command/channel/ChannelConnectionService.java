package io.herald.command.channel;

import io.herald.adapters.outbound.OutboundGuard;
import io.herald.command.health.TokenExpiryWarnings;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Creates and changes channel connections: the encrypted credentials row and the
 * {@code ChannelConnectionConfigured} event are written in one transaction.
 */
@Service
public class ChannelConnectionService {

    private static final Logger log = LoggerFactory.getLogger(ChannelConnectionService.class);

    private final ChannelConnectionStore store;
    private final CommandGateway commands;
    private final OutboundGuard outbound;
    private final TokenExpiryWarnings expiryWarnings;
    private final Clock clock;

    public ChannelConnectionService(ChannelConnectionStore store, CommandGateway commands, OutboundGuard outbound,
                                    TokenExpiryWarnings expiryWarnings, Clock clock) {
        this.store = store;
        this.expiryWarnings = expiryWarnings;
        this.commands = commands;
        this.outbound = outbound;
        this.clock = clock;
    }

    /** What a configure call did. */
    public record Configured(boolean created, ChannelType type, ChannelSettings settings, boolean autoReattempt,
                             long credentialVersion) {
    }

    public Optional<ChannelType> typeOf(WorkspaceId workspace, ChannelId channel) {
        return store.typeOf(workspace, channel);
    }

    @Transactional
    public Configured configure(WorkspaceId workspace, ChannelId channel, ChannelConnectionRequest request,
                                String actor) {
        ChannelType type = ChannelType.fromWireName(request.type());
        Optional<ChannelConnectionStore.StoredConnection> existing = store.load(workspace, channel);
        if (existing.isPresent() && existing.get().type() != type) {
            throw new HeraldRejection(ErrorCode.CHANNEL_TYPE_CHANGED, "channel " + channel + " is a "
                    + existing.get().type().wireName() + " connection; use a new channel id for a "
                    + type.wireName() + " connection");
        }
        ChannelSecrets previous = existing.map(store::decrypt).orElse(ChannelSecrets.none());
        boolean repointed = existing.isPresent() && repointed(type, existing.get().settings(), request);
        if (repointed) {
            requireSecretAgain(type, request);
        }
        ChannelSecrets secrets = new ChannelSecrets(
                firstNonNull(request.pageAccessToken(), previous.pageAccessToken()),
                // the read token belongs to the old Page: a new Page reads with its own token unless given one
                repointed ? request.readAccessToken() : firstNonNull(request.readAccessToken(), previous.readAccessToken()),
                firstNonNull(request.accessToken(), previous.accessToken()),
                firstNonNull(request.applicationPassword(), previous.applicationPassword()));
        ChannelSettings settings = settingsOf(type, request, secrets);
        if (type == ChannelType.WORDPRESS) {
            outbound.check(settings.siteUrl(), workspace.value()).ifPresent(reason -> {
                throw new HeraldRejection(ErrorCode.DESTINATION_NOT_ALLOWED, "siteUrl is not allowed: " + reason);
            });
        }
        boolean autoReattempt = Boolean.TRUE.equals(request.autoReattemptAfterNotFound());

        long version = existing.map(ChannelConnectionStore.StoredConnection::credentialVersion).orElse(0L);
        boolean changed = existing.isEmpty()
                || !Objects.equals(existing.get().settings(), settings)
                || !Objects.equals(previous, secrets);
        if (changed) {
            version++;
        }
        if (changed || existing.get().autoReattemptAfterNotFound() != autoReattempt) {
            store.save(workspace, channel, type, settings, version, secrets, autoReattempt, clock.instant());
        }
        commands.sendAndWait(new ConfigureChannelConnectionCommand(ChannelConnectionId.of(workspace, channel),
                workspace, channel, type, settings, version, autoReattempt, actor, clock.instant()));
        // new credentials have the expiry this request gives (none when it gives none); the same ones keep theirs
        if (request.accessTokenExpiresAt() != null || changed) {
            ChannelConnectionId id = ChannelConnectionId.of(workspace, channel);
            commands.sendAndWait(new RecordTokenExpiryCommand(id, version, request.accessTokenExpiresAt(),
                    clock.instant()));
            expiryWarnings.warnIfDue(id, request.accessTokenExpiresAt());
        }
        log.info("channel {} of workspace {} configured as {} (credential version {})", channel, workspace,
                type.wireName(), version);
        return new Configured(existing.isEmpty(), type, settings, autoReattempt, version);
    }

    /**
     * Whether the request sends the connection's credentials somewhere else than before. A missing
     * field is not a change: it is reported as required.
     */
    private static boolean repointed(ChannelType type, ChannelSettings stored, ChannelConnectionRequest r) {
        return switch (type) {
            case FACEBOOK -> changed(stored.pageId(), r.pageId());
            case LINKEDIN -> changed(stored.authorUrn(), r.authorUrn());
            case WORDPRESS -> changed(stored.siteUrl(), stripTrailingSlash(r.siteUrl()))
                    || changed(stored.username(), r.username());
        };
    }

    private static boolean changed(String stored, String requested) {
        return requested != null && !requested.equals(stored);
    }

    /** A stored secret never goes to a new destination (API.md): the request must carry it again. */
    private static void requireSecretAgain(ChannelType type, ChannelConnectionRequest r) {
        String field = switch (type) {
            case FACEBOOK -> r.pageAccessToken() == null ? "pageAccessToken" : null;
            case LINKEDIN -> r.accessToken() == null ? "accessToken" : null;
            case WORDPRESS -> r.applicationPassword() == null ? "applicationPassword" : null;
        };
        if (field != null) {
            String destination = switch (type) {
                case FACEBOOK -> "pageId";
                case LINKEDIN -> "authorUrn";
                case WORDPRESS -> "siteUrl or username";
            };
            throw HeraldRejection.invalid(List.of(new FieldViolation(field,
                    "is required again when " + destination + " changes: a stored secret is never sent to a new "
                            + "destination")));
        }
    }

    private static ChannelSettings settingsOf(ChannelType type, ChannelConnectionRequest r, ChannelSecrets secrets) {
        List<FieldViolation> missing = new ArrayList<>();
        ChannelSettings settings = switch (type) {
            case FACEBOOK -> {
                require(r.pageId(), "pageId", missing);
                require(secrets.pageAccessToken(), "pageAccessToken", missing);
                yield new ChannelSettings(r.pageId(), null, null, null, null, secrets.readAccessToken() != null);
            }
            case LINKEDIN -> {
                require(r.authorUrn(), "authorUrn", missing);
                require(secrets.accessToken(), "accessToken", missing);
                yield new ChannelSettings(null, r.authorUrn(), r.scopes() == null ? List.of() : List.copyOf(r.scopes()),
                        null, null, false);
            }
            case WORDPRESS -> {
                require(r.siteUrl(), "siteUrl", missing);
                require(r.username(), "username", missing);
                require(secrets.applicationPassword(), "applicationPassword", missing);
                yield new ChannelSettings(null, null, null, stripTrailingSlash(r.siteUrl()), r.username(), false);
            }
        };
        if (!missing.isEmpty()) {
            throw HeraldRejection.invalid(missing);
        }
        return settings;
    }

    private static void require(String value, String field, List<FieldViolation> missing) {
        if (value == null || value.isBlank()) {
            missing.add(new FieldViolation(field, "is required for this channel type"));
        }
    }

    private static String stripTrailingSlash(String url) {
        return url != null && url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private static String firstNonNull(String a, String b) {
        return a != null ? a : b;
    }
}
