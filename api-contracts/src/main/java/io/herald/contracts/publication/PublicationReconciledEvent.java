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
 * @param verified  for an operator's confirmation that names the post: true when the post was read
 *                  back with the connection's credentials and is the connection's own, false when
 *                  the channel could not read it (then the entry's updates and deletes wait for a
 *                  confirmation that can be read); null otherwise, and in revision 1, written
 *                  before decisions were checked
 */
@Revision("2")
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
        Instant reconciledAt,
        Boolean verified) {

    /** A reconciliation that names no post of an operator's: nothing to verify. */
    public PublicationReconciledEvent(PublicationId publicationId, WorkspaceId workspaceId, int attemptNo,
                                      ReconciliationResult result, ReconciliationSource source,
                                      ProviderRef providerRef, String detail, String decidedBy, String note,
                                      Instant reconciledAt) {
        this(publicationId, workspaceId, attemptNo, result, source, providerRef, detail, decidedBy, note,
                reconciledAt, null);
    }

    /** An operator named the post, and the channel could not read it back. */
    public boolean unverified() {
        return Boolean.FALSE.equals(verified);
    }
}
