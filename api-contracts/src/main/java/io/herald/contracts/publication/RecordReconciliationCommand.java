package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The result of an automatic read-back at the provider for the given attempt.
 *
 * @param providerRef the post found, for {@link ReconciliationResult#FOUND}
 * @param detail      why, in an operator's words (e.g. "read-back unavailable: missing r_member_social")
 */
public record RecordReconciliationCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int attemptNo,
        ReconciliationResult result,
        ProviderRef providerRef,
        String detail,
        Instant recordedAt) {
}
