package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A read-back of attempt {@code attemptNo} is due. Answers the {@link ReadBackLicence} while that
 * attempt's outcome is still unknown, else null: the read is moot.
 */
public record StartReadBackCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int attemptNo) {
}
