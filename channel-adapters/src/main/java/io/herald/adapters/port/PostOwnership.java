package io.herald.adapters.port;

import io.herald.contracts.publication.ProviderRef;

/**
 * Whose post an operator named, as the provider shows it to the connection's credentials: the
 * check before an operator's {@code confirm_published} becomes the post later updates and deletes
 * act on. Never a secret in a detail.
 */
public sealed interface PostOwnership {

    /** The post exists and is the connection's own; {@code post} is how the provider names it. */
    record Owned(ProviderRef post, String detail) implements PostOwnership {
    }

    /** No such post, or another's (another Page, author or site user): {@code found} says what was found. */
    record NotOwned(String found) implements PostOwnership {
    }

    /** The connection's credentials cannot read posts at all: the post cannot be checked. */
    record Unreadable(String reason) implements PostOwnership {
    }

    /** The read failed or its answer could not be read: ask again later. */
    record Unknown(String reason) implements PostOwnership {
    }
}
