package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * A client ({@code execute}) or an operator ({@code reattempt}) authorised a new attempt. The
 * publishing saga starts it; the aggregate still checks every rule when it does.
 */
@Revision("1")
public record PublicationExecutionRequestedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        AttemptTrigger trigger,
        String requestedBy,
        String note,
        Instant requestedAt) {
}
