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
 */
public record DecidePublicationCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        WorkspaceId workspaceId,
        OperatorDecision decision,
        ProviderRef providerRef,
        String operator,
        String note,
        Instant decidedAt) {
}
