package io.herald.command.publication;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.PublicationNothingToChangeEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationSupersededEvent;
import io.herald.contracts.publication.PublicationTargetedEvent;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the entry's order (docs/architecture.md#an-entrys-post-over-time) means for an update or delete
 * about to start: wait for an earlier operation, end without a call, or fix the post acted on.
 *
 * @param event   what the publication records of its turn; null while it waits
 * @param refusal why no attempt starts now; null when the attempt may go on
 */
record EntryTurn(Object event, AttemptDecision refusal) {

    private static final Logger log = LoggerFactory.getLogger(EntryTurn.class);

    static EntryTurn of(PublicationRequestedEvent request, EntryOrder.Turn turn, Instant at) {
        if (turn instanceof EntryOrder.Wait wait) {
            log.info("{} of {} waits for {} of the same entry and channel", request.action().wireName(),
                    request.publicationId(), wait.earlier());
            return new EntryTurn(null, AttemptDecision.refused(request.publicationId(), Publication.WAITING_FOR_ENTRY,
                    "waits for " + wait.earlier() + ", accepted earlier for the same entry and channel, to settle"));
        }
        if (turn instanceof EntryOrder.Superseded superseded) {
            String detail = "content version " + request.contentVersion() + " is older than version "
                    + superseded.appliedVersion() + ", already applied to the entry's post; nothing was sent";
            return new EntryTurn(new PublicationSupersededEvent(request.publicationId(), request.workspaceId(),
                    request.contentVersion(), superseded.appliedVersion(), detail, at),
                    AttemptDecision.refused(request.publicationId(), "superseded", detail));
        }
        if (turn instanceof EntryOrder.NothingToChange nothing) {
            return new EntryTurn(new PublicationNothingToChangeEvent(request.publicationId(), request.workspaceId(),
                    nothing.reason(), at),
                    AttemptDecision.refused(request.publicationId(), ErrorCode.NOTHING_TO_CHANGE.code(),
                            nothing.reason()));
        }
        if (turn instanceof EntryOrder.Unverified unverified) {
            log.info("{} of {} waits: the entry's post, named by an operator for {}, was not read back",
                    request.action().wireName(), request.publicationId(), unverified.creator());
            return new EntryTurn(null, AttemptDecision.refused(request.publicationId(),
                    ErrorCode.TARGET_UNVERIFIED.code(), "the entry's post was confirmed by an operator for "
                            + unverified.creator() + " without being read back; confirm a readable reference"));
        }
        return new EntryTurn(new PublicationTargetedEvent(request.publicationId(), request.workspaceId(),
                ((EntryOrder.Go) turn).target(), at), null);
    }
}
