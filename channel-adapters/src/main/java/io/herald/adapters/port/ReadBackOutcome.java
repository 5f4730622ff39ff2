package io.herald.adapters.port;

import io.herald.contracts.publication.ProviderRef;

/** What a read-back found. */
public sealed interface ReadBackOutcome {

    /** Exactly one matching post. */
    record Found(ProviderRef providerRef, String evidence) implements ReadBackOutcome {
    }

    /** The whole window was read and nothing matched. */
    record NotFound(String detail) implements ReadBackOutcome {
    }

    /** Several matches, or the window could not be read completely: ask again later or an operator. */
    record Unknown(String reason) implements ReadBackOutcome {
    }

    /**
     * The provider refused the credentials as expired or revoked: nothing can be read until the
     * connection has new ones (connection health); otherwise like {@link Unavailable}.
     */
    record AuthLost(String providerCode, String reason) implements ReadBackOutcome {
    }

    /** The credentials do not allow reading back; the reason says what would fix it. */
    record Unavailable(String reason) implements ReadBackOutcome {
    }
}
