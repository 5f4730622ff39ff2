package io.herald.contracts.publication;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * Written before the provider is called (write-ahead). An attempt with no result by
 * {@code expiresAt} becomes an unknown outcome, never a retry.
 *
 * @param expiryDeadlineId the scheduler's id of the deadline at {@code expiresAt}, in events written
 *                         while expiries were scheduler deadlines; null before that and since
 *                         expiries are timer rows (kept so stored events read the same)
 * @param step             the provider write this attempt makes; {@code create_post} in events of
 *                         revision 1 (upcast), null where the action's post step is meant
 * @param mediaId          for {@code upload_media}: the image uploaded; null otherwise
 */
@Revision("2")
public record PublicationAttemptedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        int attemptNo,
        AttemptTrigger trigger,
        String idempotencyKey,
        String contentHash,
        Instant startedAt,
        Instant expiresAt,
        String expiryDeadlineId,
        PublicationStep step,
        MediaId mediaId) {

    /** An attempt at the action's post step (create, update or delete the post). */
    public PublicationAttemptedEvent(PublicationId publicationId, WorkspaceId workspaceId, ChannelId channelId,
                                     int attemptNo, AttemptTrigger trigger, String idempotencyKey, String contentHash,
                                     Instant startedAt, Instant expiresAt, String expiryDeadlineId) {
        this(publicationId, workspaceId, channelId, attemptNo, trigger, idempotencyKey, contentHash, startedAt,
                expiresAt, expiryDeadlineId, null, null);
    }

    /** An attempt whose expiry is a timer row (no scheduler id). */
    public PublicationAttemptedEvent(PublicationId publicationId, WorkspaceId workspaceId, ChannelId channelId,
                                     int attemptNo, AttemptTrigger trigger, String idempotencyKey, String contentHash,
                                     Instant startedAt, Instant expiresAt) {
        this(publicationId, workspaceId, channelId, attemptNo, trigger, idempotencyKey, contentHash, startedAt,
                expiresAt, null, null, null);
    }
}
