package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * An operator's decision on a publication Herald cannot settle alone.
 *
 * @param workspaceId the caller's workspace; another workspace's publication is "not found"
 * @param providerRef required for {@link OperatorDecision#CONFIRM_PUBLISHED}: the post's id or URL
 * @param operator    the operator's identity, recorded in the event
 * @param verified    with a {@code providerRef}: whether the request's check read the post back as the
 *                    connection's own (true) or the channel could not read it (false); null when
 *                    not checked. The aggregate does no I/O: it records what the check found.
 */
public record DecidePublicationCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        WorkspaceId workspaceId,
        OperatorDecision decision,
        ProviderRef providerRef,
        String operator,
        String note,
        Instant decidedAt,
        Boolean verified) {

    /** A decision whose reference was not read back (none named, or not a post's). */
    public DecidePublicationCommand(PublicationId publicationId, WorkspaceId workspaceId, OperatorDecision decision,
                                    ProviderRef providerRef, String operator, String note, Instant decidedAt) {
        this(publicationId, workspaceId, decision, providerRef, operator, note, decidedAt, null);
    }
}
