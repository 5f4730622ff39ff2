package io.herald.query.publication;

import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationVanishedEvent;
import io.herald.contracts.publication.ReconciliationSource;

/** Why a publication waits for an operator, in the words the decision queue shows. */
final class DecisionReasons {

    private DecisionReasons() {
    }

    static String failure(PublicationFailedEvent e) {
        StringBuilder reason = new StringBuilder("attempt ").append(e.attemptNo()).append(" failed");
        if (e.errorCode() != null) {
            reason.append(" (").append(e.errorCode()).append(')');
        }
        if (e.detail() != null) {
            reason.append(": ").append(e.detail());
        }
        return reason.toString();
    }

    static String notFound(PublicationReconciledEvent e) {
        String reason;
        if (e.source() == ReconciliationSource.OPERATOR) {
            reason = "confirmed not published" + (e.decidedBy() != null ? " by " + e.decidedBy() : "")
                    + ": re-attempt or abandon";
        } else {
            reason = "read-back found nothing for attempt " + e.attemptNo()
                    + ": confirm not published, re-attempt or abandon";
        }
        // an operator's own words are the note; the detail only repeats who decided
        String why = e.source() == ReconciliationSource.OPERATOR ? e.note()
                : e.detail() != null ? e.detail() : e.note();
        return why == null ? reason : reason + " (" + why + ")";
    }

    /** What the provider answered, and that publishing again is the calendar's next content version. */
    static String vanished(PublicationVanishedEvent e, long contentVersion) {
        return "the post vanished after success" + (e.detail() != null ? " (" + e.detail() + ")" : "")
                + ": confirm removed, or republish (the calendar then sends version " + (contentVersion + 1)
                + " of the entry)";
    }
}
