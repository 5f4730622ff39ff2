package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Duration;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Write-ahead: records {@code PublicationAttempted} before the provider is called. Its result, an
 * {@link AttemptDecision}, is the only licence to call the provider (docs/architecture.md#rules-an-auditor-can-check, rule 1); a refusal is
 * a returned decision, never an exception, so a refused command in a dispatcher's batch leaves the
 * batch's transaction alone.
 *
 * @param expectedAttemptNo     the attempt the trigger makes due; any other is stale and refused
 *                              (0: the next one, for triggers stored before the number was recorded)
 * @param attemptTimeout        how long the attempt may stay without a result before it is declared
 *                              interrupted (outcome unknown)
 * @param readBeforeCreateDone  the caller already read back once for this attempt and found nothing
 */
public record StartAttemptCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int expectedAttemptNo,
        AttemptTrigger trigger,
        Instant startedAt,
        Duration attemptTimeout,
        boolean readBeforeCreateDone) {
}
