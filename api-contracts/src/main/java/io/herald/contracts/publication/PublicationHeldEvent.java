package io.herald.contracts.publication;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * The publication waits for its connection's new credentials; nothing was sent, or the provider
 * refused the attempt for its credentials (which proves it did not execute).
 *
 * @param attemptNo   the attempt the provider refused, or 0 when held before any call
 * @param providerCode the provider's word for the refusal; null when held before any call
 * @param trace       the refused attempt's trace; null when held before any call
 * @param requestedAt when the publication was requested: held ones resume oldest first
 */
@Revision("1")
public record PublicationHeldEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        ChannelId channelId,
        int attemptNo,
        String heldReason,
        String providerCode,
        AttemptTrace trace,
        Instant requestedAt,
        Instant heldAt) {
}
