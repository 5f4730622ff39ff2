package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The request may have taken effect; no proof either way. Nothing is written again on its own. */
public record RecordAttemptOutcomeUnknownCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int attemptNo,
        UnknownCause cause,
        String detail,
        AttemptTrace trace,
        Instant recordedAt) {
}
