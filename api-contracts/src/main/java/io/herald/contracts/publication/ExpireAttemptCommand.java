package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * An attempt's expiry timer fired. If attempt {@code attemptNo} still has no result it was
 * interrupted and its outcome is unknown (rule 2); otherwise nothing happens. Answers whether the
 * attempt was expired.
 */
public record ExpireAttemptCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int attemptNo) {
}
