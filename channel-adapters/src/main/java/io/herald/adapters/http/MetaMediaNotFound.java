package io.herald.adapters.http;

import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.UnknownCause;

/**
 * Meta's "Media Not Found" answer to publishing a container (Threads' {@code threads_publish},
 * Instagram's {@code media_publish}): code 24 subcode 4279009, which Meta answers also when the
 * post went live or goes live moments later; Instagram answers code 100 subcode 33 ("The requested
 * resource does not exist") the same way. Neither proves anything: the outcome is unknown and the
 * container's own status settles it ({@code PUBLISHED}: found; {@code FINISHED}: not found), never
 * a new container (docs/channels.md#instagram, docs/channels.md#threads).
 */
public final class MetaMediaNotFound {

    /** "Media Not Found". */
    public static final String MEDIA_NOT_FOUND = "24/4279009";
    /** "The requested resource does not exist" / "Object with ID does not exist". */
    public static final String DOES_NOT_EXIST = "100/33";

    private MetaMediaNotFound() {
    }

    /** Whether {@code providerCode} ({@code code/subcode}) is "Media Not Found". */
    public static boolean mediaNotFound(String providerCode) {
        return MEDIA_NOT_FOUND.equals(providerCode);
    }

    /** Whether {@code providerCode} is "Media Not Found" or "does not exist". */
    public static boolean mediaNotFoundOrDoesNotExist(String providerCode) {
        return mediaNotFound(providerCode) || DOES_NOT_EXIST.equals(providerCode);
    }

    /**
     * The unknown outcome such an answer amounts to.
     *
     * @param provider how the detail names the provider ("Threads")
     * @param message  the provider's message, already redacted
     */
    public static PublishOutcome.OutcomeUnknown readBack(String provider, String providerCode, String message,
                                                         AttemptTrace trace) {
        return new PublishOutcome.OutcomeUnknown(UnknownCause.SERVER_ERROR, provider + " answered " + providerCode
                + " (" + message + "), which it also answers after publishing: the container's status settles it.",
                trace);
    }
}
