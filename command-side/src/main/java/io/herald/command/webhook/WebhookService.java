package io.herald.command.webhook;

import io.herald.adapters.outbound.OutboundGuard;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.webhook.ConfigureWebhookCommand;
import io.herald.contracts.webhook.DeleteWebhookCommand;
import io.herald.contracts.webhook.RotateWebhookSecretCommand;
import io.herald.contracts.webhook.WebhookEventTypes;
import io.herald.contracts.webhook.WebhookSubscriptionId;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Creates, changes, rotates and deletes webhook subscriptions: the row (secrets encrypted) and
 * the Webhook aggregate's event are written in one transaction, so neither exists without the other.
 * A workspace has at most {@link WebhookLimits#maxSubscriptions()} of them. A PUT or an admin's
 * resume lets the senders try a paused subscription's endpoint again.
 */
@Service
@EnableConfigurationProperties(WebhookLimits.class)
public class WebhookService {

    private static final Logger log = LoggerFactory.getLogger(WebhookService.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final WebhookStore store;
    private final CommandGateway commands;
    private final OutboundGuard outbound;
    private final Clock clock;
    private final WebhookLimits limits;

    public WebhookService(WebhookStore store, CommandGateway commands, OutboundGuard outbound, Clock clock,
                          WebhookLimits limits) {
        this.store = store;
        this.commands = commands;
        this.outbound = outbound;
        this.clock = clock;
        this.limits = limits;
    }

    /** What a PUT did; {@code secret} only when it created the subscription. */
    public record Configured(boolean created, WebhookStore.Listed webhook, String secret) {
    }

    @Transactional
    public Configured configure(WorkspaceId workspace, String webhookId, WebhookRequest request, String actor) {
        List<String> unknown = WebhookEventTypes.unknown(request.events());
        if (!unknown.isEmpty()) {
            throw HeraldRejection.invalid(List.of(new FieldViolation("events",
                    "unknown event types: " + String.join(", ", unknown.stream().map(WebhookService::quoted).toList()))));
        }
        List<String> events = List.copyOf(new LinkedHashSet<>(request.events()));
        outbound.check(request.url(), workspace.value()).ifPresent(reason -> {
            throw new HeraldRejection(ErrorCode.DESTINATION_NOT_ALLOWED, "url is not allowed: " + reason);
        });
        boolean enabled = request.enabled() == null || request.enabled();
        Instant now = clock.instant();
        Optional<WebhookStore.Stored> existing = store.load(workspace, webhookId);
        WebhookSubscriptionId id = WebhookSubscriptionId.of(workspace, webhookId);
        if (existing.isPresent() && !existing.get().deleted()) {
            store.update(workspace, webhookId, request.url(), events, enabled, now);
            if (store.resume(workspace, webhookId)) {
                log.info("webhook {} of workspace {} resumed by a PUT", webhookId, workspace);
            }
            commands.sendAndWait(new ConfigureWebhookCommand(id, workspace, webhookId, request.url(), events, enabled,
                    existing.get().secretVersion(), actor, now));
            log.info("webhook {} of workspace {} updated", webhookId, workspace);
            return new Configured(false, new WebhookStore.Listed(webhookId, request.url(), events, enabled,
                    existing.get().createdAt(), null, null), null);
        }
        // creations of one workspace take turns, so the count below cannot be passed by a concurrent PUT
        store.lockWorkspace(workspace);
        if (store.count(workspace) >= limits.maxSubscriptions()) {
            throw new HeraldRejection(ErrorCode.LIMIT_REACHED, "this workspace has " + limits.maxSubscriptions()
                    + " webhook subscriptions, the most it may have; delete one first");
        }
        long version = existing.map(stored -> stored.secretVersion() + 1).orElse(1L);
        String secret = newSecret();
        if (!store.create(workspace, webhookId, request.url(), events, enabled, version, secret, now)) {
            throw new HeraldRejection(ErrorCode.CONCURRENT_MODIFICATION,
                    "webhook " + webhookId + " was created by another request at the same time; send the PUT again");
        }
        commands.sendAndWait(new ConfigureWebhookCommand(id, workspace, webhookId, request.url(), events, enabled,
                version, actor, now));
        log.info("webhook {} of workspace {} created", webhookId, workspace);
        return new Configured(true, new WebhookStore.Listed(webhookId, request.url(), events, enabled, now, null,
                null), secret);
    }

    /**
     * The senders claim the subscription's deliveries again (those held back while it was paused
     * go first, in their order). Empty when there is no such subscription; a subscription that was
     * not paused is answered as it is.
     */
    @Transactional
    public Optional<WebhookStore.Listed> resume(WorkspaceId workspace, String webhookId, String actor) {
        Optional<WebhookStore.Stored> existing = store.load(workspace, webhookId).filter(s -> !s.deleted());
        if (existing.isEmpty()) {
            return Optional.empty();
        }
        if (store.resume(workspace, webhookId)) {
            log.info("webhook {} of workspace {} resumed by {}", webhookId, workspace, actor);
        }
        return store.listed(workspace, webhookId);
    }

    /** A new secret, shown once; the old one keeps signing for {@link WebhookStore#OVERLAP}. */
    @Transactional
    public Optional<String> rotate(WorkspaceId workspace, String webhookId, String actor) {
        Optional<WebhookStore.Stored> existing = store.load(workspace, webhookId).filter(s -> !s.deleted());
        if (existing.isEmpty()) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        long version = existing.get().secretVersion() + 1;
        String secret = newSecret();
        store.rotate(existing.get(), version, secret, now);
        commands.sendAndWait(new RotateWebhookSecretCommand(WebhookSubscriptionId.of(workspace, webhookId), workspace,
                webhookId, version, actor, now));
        log.info("webhook {} of workspace {}: secret rotated (version {})", webhookId, workspace, version);
        return Optional.of(secret);
    }

    @Transactional
    public boolean delete(WorkspaceId workspace, String webhookId, String actor) {
        Optional<WebhookStore.Stored> existing = store.load(workspace, webhookId).filter(s -> !s.deleted());
        if (existing.isEmpty()) {
            return false;
        }
        Instant now = clock.instant();
        store.delete(workspace, webhookId, now);
        commands.sendAndWait(new DeleteWebhookCommand(WebhookSubscriptionId.of(workspace, webhookId), workspace,
                webhookId, actor, now));
        log.info("webhook {} of workspace {} deleted", webhookId, workspace);
        return true;
    }

    public List<WebhookStore.Listed> list(WorkspaceId workspace) {
        return store.list(workspace);
    }

    /** An unknown type as the answer names it: shortened, so a huge one is not echoed whole. */
    private static String quoted(String type) {
        if (type == null) {
            return "null";
        }
        return type.length() > 64 ? type.substring(0, 64) + "…" : type;
    }

    /** {@code whsec_} and the base64 of 32 random bytes (docs/api.md#webhooks). */
    static String newSecret() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }
}
