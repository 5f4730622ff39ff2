package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import java.time.Duration;
import java.time.Instant;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * The provider confirmed the effect and returned where the post lives.
 *
 * @param verifyAfter where the connection verifies after success: how long after it the post is read
 *                    again; null: it is not
 * @param note        what the step's view says besides its success, or null
 */
public record RecordAttemptSucceededCommand(
        @TargetAggregateIdentifier PublicationId publicationId,
        int attemptNo,
        ProviderRef providerRef,
        AttemptTrace trace,
        Instant recordedAt,
        Duration verifyAfter,
        String note) {

    /** A success with nothing to say besides it. */
    public RecordAttemptSucceededCommand(PublicationId publicationId, int attemptNo, ProviderRef providerRef,
                                         AttemptTrace trace, Instant recordedAt, Duration verifyAfter) {
        this(publicationId, attemptNo, providerRef, trace, recordedAt, verifyAfter, null);
    }

    /** A success that is not verified afterwards. */
    public RecordAttemptSucceededCommand(PublicationId publicationId, int attemptNo, ProviderRef providerRef,
                                         AttemptTrace trace, Instant recordedAt) {
        this(publicationId, attemptNo, providerRef, trace, recordedAt, null, null);
    }
}
