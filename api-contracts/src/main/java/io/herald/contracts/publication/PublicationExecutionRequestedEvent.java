package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * A client ({@code execute}) or an operator ({@code reattempt}) authorised a new attempt. The
 * dispatcher asks for it; the aggregate still checks every rule when it does.
 *
 * @param attemptNo the attempt this authorises, so a redelivered event is recognised as stale;
 *                  0 in events of revision 1, which did not record it
 */
@Revision("2")
public record PublicationExecutionRequestedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        AttemptTrigger trigger,
        String requestedBy,
        String note,
        Instant requestedAt,
        int attemptNo) {
}
