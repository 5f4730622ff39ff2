package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * An operator gave up on one step while the publication's post stands (e.g. abandoned a first
 * comment whose outcome stayed unknown): the step is SKIPPED, nothing more is sent for it.
 */
@Revision("1")
public record PublicationStepSkippedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        int attemptNo,
        PublicationStep step,
        String decidedBy,
        String note,
        Instant skippedAt) {
}
