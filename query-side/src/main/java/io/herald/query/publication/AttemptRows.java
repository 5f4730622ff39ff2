package io.herald.query.publication;

import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationHeldEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.PublicationView.Attempt;
import io.herald.contracts.publication.PublicationView.AttemptOutcome;

/**
 * An attempt's row in the view: in flight when it starts, then ended by its result, with what the
 * provider's answer showed (its trace). Without a trace, whether a response came back is what the
 * outcome implies: yes for a success, no for an unknown outcome, not known for a failure.
 */
final class AttemptRows {

    private AttemptRows() {
    }

    static Attempt inFlight(PublicationAttemptedEvent e) {
        return new Attempt(e.attemptNo(), e.trigger(), e.startedAt(), AttemptOutcome.IN_FLIGHT,
                null, null, null, null, null, null, null, null, null, null);
    }

    static Attempt succeeded(Attempt before, PublicationSucceededEvent e) {
        AttemptTrace t = e.trace();
        return new Attempt(e.attemptNo(), before.trigger(), before.startedAt(), AttemptOutcome.SUCCEEDED,
                t == null ? null : t.httpStatus(), t == null ? null : t.providerCode(),
                t == null ? null : t.providerTraceId(), e.note(), t == null ? null : t.requestFingerprint(),
                null, null, t == null ? Boolean.TRUE : t.responseReceived(), e.succeededAt(), null);
    }

    /** The provider's own code when it gave one, else Herald's. */
    static Attempt failed(Attempt before, PublicationFailedEvent e) {
        AttemptTrace t = e.trace();
        String providerCode = t != null && t.providerCode() != null ? t.providerCode() : e.errorCode();
        return new Attempt(e.attemptNo(), before.trigger(), before.startedAt(), AttemptOutcome.FAILED,
                t == null ? null : t.httpStatus(), providerCode, t == null ? null : t.providerTraceId(),
                e.detail(), t == null ? null : t.requestFingerprint(), e.kind(), null,
                t == null ? null : t.responseReceived(), e.failedAt(), e.retryAt());
    }

    static Attempt outcomeUnknown(Attempt before, PublicationOutcomeUnknownEvent e) {
        AttemptTrace t = e.trace();
        return new Attempt(e.attemptNo(), before.trigger(), before.startedAt(), AttemptOutcome.OUTCOME_UNKNOWN,
                t == null ? null : t.httpStatus(), t == null ? null : t.providerCode(),
                t == null ? null : t.providerTraceId(), e.detail(), t == null ? null : t.requestFingerprint(),
                null, e.cause(), t == null ? Boolean.FALSE : t.responseReceived(), e.recordedAt(), null);
    }

    /** The provider refused the attempt for its credentials: it failed, and the publication is held. */
    static Attempt refusedForCredentials(Attempt before, PublicationHeldEvent e) {
        AttemptTrace t = e.trace();
        return new Attempt(e.attemptNo(), before.trigger(), before.startedAt(), AttemptOutcome.FAILED,
                t == null ? null : t.httpStatus(), e.providerCode(), t == null ? null : t.providerTraceId(),
                e.heldReason(), t == null ? null : t.requestFingerprint(), null, null,
                t == null ? null : t.responseReceived(), e.heldAt(), null);
    }

    /** The provider refused the call as a duplicate: it answered, and the call failed. */
    static Attempt refusedAsDuplicate(Attempt a, PublicationReconciledEvent e) {
        return new Attempt(a.attemptNo(), a.trigger(), a.startedAt(), AttemptOutcome.FAILED,
                a.httpStatus(), a.providerCode(), a.providerTraceId(), e.detail(), a.requestFingerprint(),
                a.failureKind(), a.unknownCause(), Boolean.TRUE, e.reconciledAt(), null);
    }
}
