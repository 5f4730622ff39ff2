package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Read {@code readNo} of the verification after the success of attempt {@code attemptNo} is due.
 * Answers the {@link VerificationLicence} while that verification is still open, else null: the read is moot.
 */
public record StartVerificationCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int attemptNo) {
}
