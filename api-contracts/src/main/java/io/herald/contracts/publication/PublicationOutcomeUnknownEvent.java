package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

@Revision("1")
public record PublicationOutcomeUnknownEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        int attemptNo,
        UnknownCause cause,
        String detail,
        AttemptTrace trace,
        Instant recordedAt) {
}
