package io.herald.contracts.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * An operator decided about a post that vanished after success: {@link OperatorDecision#CONFIRM_REMOVED}
 * (the removal stands) or {@link OperatorDecision#REPUBLISH} (the intent to publish it again, which
 * the calendar carries out by sending the entry's next content version). Either ends the decision.
 *
 * @param nextContentVersion for {@code republish}: the content version the calendar is to send
 */
@Revision("1")
public record PublicationVanishDecidedEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        OperatorDecision decision,
        Long nextContentVersion,
        String decidedBy,
        String note,
        Instant decidedAt) {
}
