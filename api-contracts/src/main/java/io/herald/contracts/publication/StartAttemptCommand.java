package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Duration;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Write-ahead: records {@code PublicationAttempted} before the provider is called. Its result is
 * the attempt number; only whoever receives that result may call the provider (DESIGN.md rule 1).
 *
 * @param attemptTimeout how long the attempt may stay without a result before it is declared
 *                       interrupted (outcome unknown)
 */
public record StartAttemptCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        AttemptTrigger trigger,
        Instant startedAt,
        Duration attemptTimeout) {
}
