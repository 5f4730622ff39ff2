package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * A failed attempt. With {@code retryAt} the publication waits for a retry (the request provably
 * did not execute); without it the failure is final and needs an operator.
 */
@Revision("1")
public record PublicationFailedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        int attemptNo,
        FailureKind kind,
        String errorCode,
        String detail,
        AttemptTrace trace,
        Instant retryAt,
        Instant failedAt) {
}
