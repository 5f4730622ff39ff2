package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The provider refused the attempt as a duplicate (Facebook 506, LinkedIn 422 DUPLICATE_POST). On
 * a re-attempt this is evidence that an earlier attempt landed; on a first attempt the text was
 * already there (perhaps posted by hand) and an operator decides.
 *
 * @param earlierPost the earlier post where the provider names it (LinkedIn does), else null
 */
public record RecordDuplicateSignalCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int attemptNo,
        ProviderRef earlierPost,
        String detail,
        AttemptTrace trace,
        Instant recordedAt) {
}
