package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * What a read-back (or an operator, or a provider's duplicate refusal) established about the
 * publication's last attempt.
 *
 * @param decidedBy the operator, for {@link ReconciliationSource#OPERATOR}; null otherwise
 */
@Revision("1")
public record PublicationReconciledEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        int attemptNo,
        ReconciliationResult result,
        ReconciliationSource source,
        ProviderRef providerRef,
        String detail,
        String decidedBy,
        String note,
        Instant reconciledAt) {
}
