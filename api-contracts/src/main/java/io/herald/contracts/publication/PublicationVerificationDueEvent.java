package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * The publication succeeded on a connection that verifies after success: its post is read again at
 * {@code dueAt} (a timer row), to see whether it is still there.
 *
 * @param attemptNo the attempt whose success is verified
 */
@Revision("1")
public record PublicationVerificationDueEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        int attemptNo,
        Instant dueAt,
        Instant scheduledAt) {
}
