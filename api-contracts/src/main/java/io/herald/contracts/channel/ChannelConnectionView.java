package io.herald.contracts.channel;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;

/**
 * A connection as admins and operators see it: settings, capabilities and health, never secrets.
 *
 * @param retrySafety      how an unknown outcome of a create can be settled on this connection; null before
 *                         its first probe
 * @param status           whether the credentials work; null where not known (the answer of a PUT)
 * @param statusReason     the provider's reason while NEEDS_REAUTH
 * @param tokenExpiresAt   the token's expiry, where the provider gave one
 * @param heldPublications how many of the connection's publications are HELD; null where not counted
 * @param apiVersion       the provider API version it speaks and its sunset; null for a channel without
 *                         versions, or before one was recorded
 * @param budget           the tightest window of its budget (pacing); null while it has none
 * @param verifyAfterSuccess whether its posts are read again after success, to see they are still there
 */
public record ChannelConnectionView(
        WorkspaceId workspaceId,
        ChannelId channelId,
        ChannelType type,
        ChannelSettings settings,
        boolean autoReattemptAfterNotFound,
        Capabilities capabilities,
        RetrySafety retrySafety,
        Instant probedAt,
        Instant updatedAt,
        ChannelStatus status,
        String statusReason,
        Instant tokenExpiresAt,
        Integer heldPublications,
        ApiVersionView apiVersion,
        BudgetView budget,
        boolean verifyAfterSuccess) {

    public ChannelConnectionView(WorkspaceId workspaceId, ChannelId channelId, ChannelType type,
                                 ChannelSettings settings, boolean autoReattemptAfterNotFound,
                                 Capabilities capabilities, RetrySafety retrySafety, Instant probedAt,
                                 Instant updatedAt, ChannelStatus status, String statusReason, Instant tokenExpiresAt,
                                 Integer heldPublications, ApiVersionView apiVersion, BudgetView budget) {
        this(workspaceId, channelId, type, settings, autoReattemptAfterNotFound, capabilities, retrySafety, probedAt,
                updatedAt, status, statusReason, tokenExpiresAt, heldPublications, apiVersion, budget, false);
    }

    public ChannelConnectionView(WorkspaceId workspaceId, ChannelId channelId, ChannelType type,
                                 ChannelSettings settings, boolean autoReattemptAfterNotFound,
                                 Capabilities capabilities, RetrySafety retrySafety, Instant probedAt,
                                 Instant updatedAt, ChannelStatus status, String statusReason, Instant tokenExpiresAt,
                                 Integer heldPublications) {
        this(workspaceId, channelId, type, settings, autoReattemptAfterNotFound, capabilities, retrySafety, probedAt,
                updatedAt, status, statusReason, tokenExpiresAt, heldPublications, null, null);
    }

    public ChannelConnectionView(WorkspaceId workspaceId, ChannelId channelId, ChannelType type,
                                 ChannelSettings settings, boolean autoReattemptAfterNotFound,
                                 Capabilities capabilities, RetrySafety retrySafety, Instant probedAt,
                                 Instant updatedAt) {
        this(workspaceId, channelId, type, settings, autoReattemptAfterNotFound, capabilities, retrySafety, probedAt,
                updatedAt, null, null, null, null, null, null);
    }

    public record Capabilities(Capability publish, Capability reconcile) {
    }
}
