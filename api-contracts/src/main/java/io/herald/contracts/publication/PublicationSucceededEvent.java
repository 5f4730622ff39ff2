package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * An attempt's step succeeded.
 *
 * @param note what the step's view says besides its success (e.g. "image converted to JPEG for
 *             Instagram"), or null; null in events of revision 1 (upcast)
 */
@Revision("2")
public record PublicationSucceededEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        int attemptNo,
        ProviderRef providerRef,
        AttemptTrace trace,
        Instant succeededAt,
        String note) {

    /** A success with nothing to say besides it. */
    public PublicationSucceededEvent(PublicationId publicationId, WorkspaceId workspaceId, int attemptNo,
                                     ProviderRef providerRef, AttemptTrace trace, Instant succeededAt) {
        this(publicationId, workspaceId, attemptNo, providerRef, trace, succeededAt, null);
    }
}
