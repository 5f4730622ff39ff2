package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

@Revision("1")
public record PublicationSucceededEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        int attemptNo,
        ProviderRef providerRef,
        AttemptTrace trace,
        Instant succeededAt) {
}
