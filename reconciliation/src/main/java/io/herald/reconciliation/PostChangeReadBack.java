package io.herald.reconciliation;

import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.ReadBackLicence;

/**
 * What reading the entry's post establishes about a converging step (docs/architecture.md#steps-and-step-kinds): the
 * change there is FOUND (succeeded); the change missing is NOT_FOUND, and the step is sent again.
 */
final class PostChangeReadBack {

    private PostChangeReadBack() {
    }

    static ReadBackOutcome judge(ReadBackLicence licence, PostReading reading) {
        boolean delete = licence.action() == PublicationAction.DELETE;
        if (reading instanceof PostReading.Present present) {
            if (delete) {
                return new ReadBackOutcome.NotFound("the post is still there (" + present.detail()
                        + "): the delete did not happen");
            }
            return present.asWanted()
                    ? new ReadBackOutcome.Found(licence.target(), "the post's text is as wanted: " + present.detail())
                    : new ReadBackOutcome.NotFound("the post's text is not the wanted one yet: " + present.detail());
        }
        if (reading instanceof PostReading.Gone gone) {
            return delete ? new ReadBackOutcome.Found(licence.target(), "the post is gone: " + gone.detail())
                    : new ReadBackOutcome.Unknown("the post to update is gone: " + gone.detail());
        }
        if (reading instanceof PostReading.Unavailable unavailable) {
            return new ReadBackOutcome.Unavailable(unavailable.reason());
        }
        return new ReadBackOutcome.Unknown(((PostReading.Unknown) reading).reason());
    }
}
