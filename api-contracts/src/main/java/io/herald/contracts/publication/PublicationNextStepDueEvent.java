package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * A step ended and the publication has another to take now: the next upload, the post after its
 * uploads, the first comment after the post, or an upload again after its outcome was unknown
 * (uploads are repeatable). The dispatcher asks for attempt {@code attemptNo}; the aggregate
 * still decides which step it is.
 */
@Revision("1")
public record PublicationNextStepDueEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        int attemptNo,
        PublicationStep step,
        Instant dueAt) {
}
