package io.herald.contracts.webhook;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The event types a webhook may subscribe to (docs/api.md#webhooks). {@code publication.held},
 * {@code publication.superseded} and the channel events are accepted in subscriptions; nothing
 * emits them until connection health and updates exist.
 */
public final class WebhookEventTypes {

    public static final String ALL = "*";
    public static final String SUCCEEDED = "publication.succeeded";
    public static final String FAILED = "publication.failed";
    public static final String OUTCOME_UNKNOWN = "publication.outcome_unknown";
    public static final String NEEDS_DECISION = "publication.needs_decision";
    public static final String NOT_EXECUTED = "publication.not_executed";
    public static final String HELD = "publication.held";
    public static final String SUPERSEDED = "publication.superseded";
    public static final String ABANDONED = "publication.abandoned";
    /** A post Herald published was read again after success and found gone. */
    public static final String VANISHED = "publication.vanished";
    public static final String CHANNEL_NEEDS_REAUTH = "channel.needs_reauth";
    public static final String CHANNEL_REAUTHORIZED = "channel.reauthorized";
    public static final String CHANNEL_TOKEN_EXPIRING = "channel.token_expiring";
    public static final String CHANNEL_VERSION_EXPIRING = "channel.version_expiring";

    public static final Set<String> KNOWN = Set.of(ALL, SUCCEEDED, FAILED, OUTCOME_UNKNOWN, NEEDS_DECISION,
            NOT_EXECUTED, HELD, SUPERSEDED, ABANDONED, VANISHED, CHANNEL_NEEDS_REAUTH, CHANNEL_REAUTHORIZED,
            CHANNEL_TOKEN_EXPIRING, CHANNEL_VERSION_EXPIRING);

    private WebhookEventTypes() {
    }

    /** The requested types that are not event types, in the order given. */
    public static List<String> unknown(Collection<String> requested) {
        return requested.stream().filter(type -> type == null || !KNOWN.contains(type)).distinct().toList();
    }

    /** Whether a subscription to {@code subscribed} receives {@code type}. */
    public static boolean matches(Collection<String> subscribed, String type) {
        return subscribed.contains(ALL) || subscribed.contains(type);
    }
}
