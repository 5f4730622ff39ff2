package io.herald.deploy.http;

import static io.herald.contracts.error.ErrorCode.ATTEMPT_IN_FLIGHT;
import static io.herald.contracts.error.ErrorCode.CHANNEL_TYPE_CHANGED;
import static io.herald.contracts.error.ErrorCode.CONCURRENT_MODIFICATION;
import static io.herald.contracts.error.ErrorCode.DECISION_NOT_ALLOWED;
import static io.herald.contracts.error.ErrorCode.DESTINATION_NOT_ALLOWED;
import static io.herald.contracts.error.ErrorCode.IDEMPOTENCY_KEY_REUSED;
import static io.herald.contracts.error.ErrorCode.LIMIT_REACHED;
import static io.herald.contracts.error.ErrorCode.MEDIA_INVALID;
import static io.herald.contracts.error.ErrorCode.MEDIA_IN_USE;
import static io.herald.contracts.error.ErrorCode.MEDIA_UNREADABLE;
import static io.herald.contracts.error.ErrorCode.OAUTH_FAILED;
import static io.herald.contracts.error.ErrorCode.OAUTH_NOT_CONFIGURED;
import static io.herald.contracts.error.ErrorCode.OAUTH_STATE_INVALID;
import static io.herald.contracts.error.ErrorCode.NOTHING_TO_CHANGE;
import static io.herald.contracts.error.ErrorCode.OUTCOME_UNKNOWN_REQUIRES_DECISION;
import static io.herald.contracts.error.ErrorCode.PAYLOAD_TOO_LARGE;
import static io.herald.contracts.error.ErrorCode.POST_NOT_OWNED;
import static io.herald.contracts.error.ErrorCode.PUBLICATION_ALREADY_SUCCEEDED;
import static io.herald.contracts.error.ErrorCode.PUBLICATION_NOT_EXECUTABLE;
import static io.herald.contracts.error.ErrorCode.TARGET_UNVERIFIED;
import static io.herald.contracts.error.ErrorCode.QUOTA_EXCEEDED;
import static io.herald.contracts.error.ErrorCode.UNKNOWN_CHANNEL;
import static io.herald.contracts.error.ErrorCode.UNKNOWN_MEDIA;
import static io.herald.contracts.error.ErrorCode.UNSUPPORTED_MEDIA_TYPE;
import static io.herald.contracts.error.ErrorCode.VALIDATION_FAILED;

import io.herald.contracts.error.ErrorCode;
import java.util.List;
import java.util.Map;

/**
 * Each operation of the HTTP contract by method and path: its operationId, tag, summary and the
 * problem codes it may answer besides the ones every call may get (docs/api.md#problem-types explains each).
 */
final class ApiOperations {

    record Operation(String id, String tag, String summary, List<ErrorCode> problems) {
    }

    private static final String WS = "/api/v1/workspaces/{ws}";
    private static final String PUB = WS + "/publications/{id}";

    static final Map<String, Operation> BY_ROUTE = Map.ofEntries(
            op("POST /api/v1/admin/workspaces", "createWorkspace", "workspaces", "Create a workspace (system key)",
                    VALIDATION_FAILED),
            op("POST " + WS + "/keys", "createApiKey", "workspaces", "Issue an API key; the raw key is shown once",
                    VALIDATION_FAILED),
            op("GET " + WS + "/keys", "listApiKeys", "workspaces", "The workspace's keys, without the keys themselves"),
            op("DELETE " + WS + "/keys/{keyId}", "revokeApiKey", "workspaces", "Revoke a key"),
            op("PUT " + WS + "/signing-secret", "setSigningSecret", "workspaces",
                    "Require signed requests (X-Herald-Signature v2) with this secret", VALIDATION_FAILED),
            op("DELETE " + WS + "/signing-secret", "removeSigningSecret", "workspaces", "Stop requiring signed requests"),

            op("POST " + WS + "/publications", "requestPublication", "publications",
                    "Request a publication of a calendar entry to one channel (idempotent)", VALIDATION_FAILED,
                    PAYLOAD_TOO_LARGE, IDEMPOTENCY_KEY_REUSED, UNKNOWN_CHANNEL, UNKNOWN_MEDIA, NOTHING_TO_CHANGE,
                    TARGET_UNVERIFIED),
            op("GET " + WS + "/publications", "listPublications", "publications",
                    "Publications of the workspace, newest first, a page at a time", VALIDATION_FAILED),
            op("GET " + PUB, "getPublication", "publications",
                    "One publication: status, steps, attempts; with asOf, as it stood at that instant",
                    VALIDATION_FAILED),
            op("POST " + PUB + "/execute", "executePublication", "publications", "Run the publication (again)",
                    PUBLICATION_ALREADY_SUCCEEDED, OUTCOME_UNKNOWN_REQUIRES_DECISION, ATTEMPT_IN_FLIGHT,
                    PUBLICATION_NOT_EXECUTABLE, CONCURRENT_MODIFICATION),
            op("POST " + PUB + "/decisions", "decidePublication", "operator",
                    "An operator's decision on a publication that needs one", VALIDATION_FAILED, DECISION_NOT_ALLOWED,
                    CONCURRENT_MODIFICATION, POST_NOT_OWNED),
            op("POST " + PUB + "/reconcile", "reconcilePublication", "operator",
                    "Read the post back from the provider now", PUBLICATION_NOT_EXECUTABLE, CONCURRENT_MODIFICATION),
            op("GET " + WS + "/decisions", "listDecisions", "operator", "The decision queue", VALIDATION_FAILED),
            op("GET " + WS + "/stats", "getPublicationStats", "operator", "Publication statistics over a window",
                    VALIDATION_FAILED),
            op("GET " + WS + "/counts", "getPublicationCounts", "operator", "Publications counted by status"),

            op("POST " + WS + "/media", "uploadMedia", "media", "Upload an image (the body is the image)",
                    PAYLOAD_TOO_LARGE, QUOTA_EXCEEDED, UNSUPPORTED_MEDIA_TYPE, MEDIA_INVALID, MEDIA_UNREADABLE),
            op("GET " + WS + "/media/{mediaId}", "getMedia", "media", "An uploaded image's description"),
            op("DELETE " + WS + "/media/{mediaId}", "deleteMedia", "media",
                    "Delete an image no unfinished publication uses", MEDIA_IN_USE),
            op("GET " + WS + "/media/{mediaId}/content", "getMediaContent", "media", "An uploaded image's bytes"),
            op("GET /media/public/{token}", "getPublicMedia", "media",
                    "An image a provider fetches while publishing (no key: the signed token names it)"),

            op("PUT " + WS + "/channels/{channelId}", "putChannel", "channels",
                    "Create or change a channel connection; runs the probe", VALIDATION_FAILED, CHANNEL_TYPE_CHANGED,
                    DESTINATION_NOT_ALLOWED),
            op("GET " + WS + "/channels", "listChannels", "channels", "Channel connections, without secrets"),
            op("GET " + WS + "/channel-types", "listChannelTypes", "channels",
                    "The channel types this server has, and how each connects"),
            op("POST " + WS + "/channels/{channelId}/probe", "probeChannel", "channels", "Re-check the capabilities"),
            op("POST " + WS + "/channels/{channelId}/connect", "connectChannel", "channels",
                    "Start connecting the channel through its provider: where to send the admin's browser",
                    VALIDATION_FAILED, OAUTH_NOT_CONFIGURED, CHANNEL_TYPE_CHANGED, OAUTH_FAILED),
            op("GET /oauth/callback/{type}", "oauthCallback", "channels",
                    "The provider's return (no key: the state authenticates it): the stored connection, or the"
                            + " choices", OAUTH_STATE_INVALID, OAUTH_FAILED, VALIDATION_FAILED, DESTINATION_NOT_ALLOWED),
            op("POST " + WS + "/channels/{channelId}/connect/choice", "chooseChannelConnection", "channels",
                    "Finish a connect with one of the choices its callback listed", OAUTH_STATE_INVALID,
                    VALIDATION_FAILED, CHANNEL_TYPE_CHANGED, DESTINATION_NOT_ALLOWED),

            op("PUT " + WS + "/webhooks/{webhookId}", "putWebhook", "webhooks",
                    "Create or change a webhook; the secret is shown on creation only; a PUT resumes a paused one",
                    VALIDATION_FAILED, DESTINATION_NOT_ALLOWED, LIMIT_REACHED),
            op("GET " + WS + "/webhooks", "listWebhooks", "webhooks",
                    "Webhooks, without secrets; a paused one (its endpoint stopped answering) says since when and why"),
            op("POST " + WS + "/webhooks/{webhookId}/resume", "resumeWebhook", "webhooks",
                    "Send a paused webhook's deliveries again"),
            op("DELETE " + WS + "/webhooks/{webhookId}", "deleteWebhook", "webhooks", "Delete a webhook"),
            op("POST " + WS + "/webhooks/{webhookId}/secret", "rotateWebhookSecret", "webhooks",
                    "A new secret, shown once; the old one keeps signing for 24 h"),
            op("GET " + WS + "/webhooks/{webhookId}/deliveries", "listWebhookDeliveries", "webhooks",
                    "Deliveries of a webhook", VALIDATION_FAILED),
            op("POST " + WS + "/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", "redeliverWebhookDelivery",
                    "webhooks", "Send a delivery again, with the same id"),

            op("GET " + PUB + "/events", "listPublicationEvents", "audit", "A publication's event stream"),
            op("GET " + WS + "/audit/events", "exportWorkspaceEvents", "audit",
                    "The workspace's events in store order (NDJSON)", VALIDATION_FAILED),
            op("GET " + WS + "/audit/verify", "verifyWorkspace", "audit",
                    "Rule breaches the live verifier found in the workspace"),
            op("GET /api/v1/audit/events", "exportAllEvents", "audit", "The whole store's events (system key, NDJSON)",
                    VALIDATION_FAILED),
            op("GET /api/v1/audit/verify", "verifyStore", "audit", "Rule breaches the live verifier found in the whole store (system key)"),
            op("GET /api/v1/audit/keys", "listAuditKeys", "audit",
                    "The public keys that sign the export's checkpoints (no key needed)"),

            op("GET /api/v1/admin/projections", "listProjections", "admin", "Projections and their positions"),
            op("POST /api/v1/admin/projections/{name}/rebuild", "rebuildProjection", "admin",
                    "Rebuild a projection from history"),
            op("GET /api/v1/admin/dead-letters", "listDeadLetters", "admin", "Events their handlers could not process"),
            op("POST /api/v1/admin/audit/verify", "startStoreVerification", "admin",
                    "Re-verify the whole store from its first event, in the background"),
            op("GET /api/v1/admin/audit/verify/{jobId}", "getStoreVerification", "admin",
                    "A re-verification job and its progress"),
            op("GET /api/v1/admin/audit/chain", "getAuditChainProgress", "admin",
                    "How far the audit chain has followed the store"),
            op("POST /api/v1/admin/secrets/re-encrypt", "reEncryptSecrets", "admin",
                    "Re-encrypt every stored secret with the first key"));

    private ApiOperations() {
    }

    private static Map.Entry<String, Operation> op(String route, String id, String tag, String summary,
                                                   ErrorCode... problems) {
        return Map.entry(route, new Operation(id, tag, summary, List.of(problems)));
    }
}
