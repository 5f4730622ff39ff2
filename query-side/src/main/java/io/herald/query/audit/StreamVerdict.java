package io.herald.query.audit;

import java.util.List;

/**
 * What the rules say about one publication stream as far as it was read: the breaches its events
 * show (rules 1–5), the attempt still open at its end, and the entry line it belongs to if it is an
 * update or delete. One small row per publication is kept of it ({@code audit_stream}).
 *
 * @param lastSequence the sequence number of the last event read: a verdict on more of the stream
 *                     replaces one on less, never the other way round
 * @param open         null when no attempt with a deadline is open
 * @param entryLine    null unless the stream is an update or delete (see {@link EntryLineCheck})
 */
record StreamVerdict(String publicationId, String workspaceId, long lastSequence, List<Breach> breaches,
                     PublicationStreamCheck.OpenAttempt open, String entryLine) {

    /** Reads one stream's events in sequence order. */
    static final class Reading {
        private final PublicationStreamCheck check;
        private String workspaceId;
        private long lastSequence = -1;
        private String entryLine;

        Reading(String publicationId) {
            this.check = new PublicationStreamCheck(publicationId);
        }

        String publicationId() {
            return check.publicationId();
        }

        /** The sequence number of the last event read; -1 before the first. */
        long lastSequence() {
            return lastSequence;
        }

        void accept(StoredEvent event) {
            check.accept(event.sequence(), event.type(), event.payload());
            if (workspaceId == null) {
                workspaceId = event.workspaceId();
            }
            String line = EntryLineCheck.lineOf(event);
            if (line != null) {
                entryLine = line;
            }
            lastSequence = event.sequence();
        }

        StreamVerdict verdict() {
            return new StreamVerdict(check.publicationId(), workspaceId == null ? "" : workspaceId, lastSequence,
                    check.breachesSoFar(), check.openAttempt(), entryLine);
        }
    }
}
