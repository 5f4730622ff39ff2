package io.herald.reconciliation;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.time.Instant;
import java.util.Optional;

/**
 * What a read-back looks for, taken from the publication's recorded events. The reconciliation
 * saga exists only for publications that had an unknown outcome, so it does not copy these facts
 * from every publication's request.
 */
public interface PublicationHistory {

    /** What attempt {@code attemptNo} of the publication sent, and where; empty if it never started. */
    Optional<AttemptFacts> attempt(PublicationId publicationId, int attemptNo);

    record AttemptFacts(ChannelId channelId, PublicationAction action, Content content, Instant startedAt) {
    }
}
