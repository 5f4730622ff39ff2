package io.herald.adapters.port;

import io.herald.contracts.channel.Capability;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;

/** How a provider call ended: one of three outcomes, plus the provider's duplicate refusal. */
public sealed interface PublishOutcome {

    AttemptTrace trace();

    /**
     * The provider confirmed the post.
     *
     * @param reconcileCapabilityChange non-null when the answer showed that read-back no longer
     *                                  works (e.g. a WordPress site that dropped Herald's meta key)
     * @param note                      what the step's view says besides its success (e.g. that an image
     *                                  was converted for the provider), or null; never a secret
     */
    record Published(ProviderRef providerRef, Capability reconcileCapabilityChange, AttemptTrace trace, String note)
            implements PublishOutcome {

        /** A success with nothing to say besides it. */
        public Published(ProviderRef providerRef, Capability reconcileCapabilityChange, AttemptTrace trace) {
            this(providerRef, reconcileCapabilityChange, trace, null);
        }

        /** The same success saying {@code note}. */
        public Published withNote(String note) {
            return new Published(providerRef, reconcileCapabilityChange, trace, note);
        }
    }

    /**
     * The provider refused, or the request provably never left.
     *
     * @param retryAfter for {@link FailureKind#RATE_LIMITED}: the provider's delay, when it gave one
     */
    record Failed(FailureKind kind, String errorCode, String detail, Duration retryAfter, AttemptTrace trace)
            implements PublishOutcome {
    }

    /** The provider refused the text as a duplicate; {@code earlierPost} where it names it. */
    record DuplicateRefused(ProviderRef earlierPost, String detail, AttemptTrace trace) implements PublishOutcome {
    }

    /**
     * The provider refused the credentials as expired or revoked: the write did not execute, and
     * nothing on this connection will until it has new credentials (docs/architecture.md#connection-health).
     *
     * @param providerCode the provider's word for it, e.g. {@code 190/463} or {@code EXPIRED_ACCESS_TOKEN}
     * @param reason       what the provider said and what fixes it
     */
    record AuthLost(String providerCode, String reason, AttemptTrace trace) implements PublishOutcome {
    }

    /**
     * The provider no longer serves the API version Herald sent (LinkedIn's 426
     * {@code NONEXISTENT_VERSION}): the write did not execute, and nothing on this connection will
     * until the configured version is changed.
     *
     * @param version the version that was sent
     * @param reason  what fixes it, naming the configuration property
     */
    record VersionRetired(String version, String providerCode, String reason, AttemptTrace trace)
            implements PublishOutcome {
    }

    /** The request may have taken effect; no proof either way. */
    record OutcomeUnknown(UnknownCause cause, String detail, AttemptTrace trace) implements PublishOutcome {
    }
}
