package io.herald.contracts.publication;

import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import org.axonframework.serialization.Revision;

/**
 * The create of attempt {@code unknownAttemptNo} has an unknown outcome, and its connection's
 * provider cannot make a second post from the same request: it is sent again now, as attempt
 * {@code attemptNo} with trigger {@link AttemptTrigger#RESEND_SAME_KEY}, without a read-back first
 * (the one exception to rule 3). Records what allowed it, so an auditor can check the re-send.
 *
 * @param retrySafety       the connection's class: {@code client_id} or {@code provider_key}, never another
 * @param idempotencyKey    the record id or key the unknown attempt carried, which the re-send carries again
 * @param originalStartedAt when the first attempt of this chain of re-sends was sent
 * @param resendUntil       the re-send may start only before this (the plug-in's window after
 *                          {@code originalStartedAt}); null: the provider keeps the id for good
 * @param resendNo          1 for the first re-send of the chain, and so on
 */
@Revision("1")
public record PublicationResendDueEvent(
        PublicationId publicationId,
        WorkspaceId workspaceId,
        int unknownAttemptNo,
        int attemptNo,
        PublicationStep step,
        RetrySafety retrySafety,
        String idempotencyKey,
        Instant originalStartedAt,
        Instant resendUntil,
        int resendNo,
        Instant dueAt) {
}
