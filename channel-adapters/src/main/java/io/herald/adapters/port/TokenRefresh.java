package io.herald.adapters.port;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * How a channel renews a long-lived token before it expires (Instagram's, Threads'): Herald asks
 * for every connection of the type whose known expiry ({@code accessTokenExpiresAt}) is within
 * {@code herald.channels.token-refresh-before}, and stores the renewed secrets, encrypted, with
 * their new expiry, as a reconnect would.
 */
public interface TokenRefresh {

    /** Asks the provider for a new token. Never completes exceptionally: every answer is a {@link Result}. */
    CompletableFuture<Result> refresh(ChannelConnection connection);

    /** What the provider answered. */
    sealed interface Result {

        /** A new token: the secrets to store, the old ones replaced. */
        record Renewed(ChannelSecrets secrets, Instant expiresAt) implements Result {
            @Override
            public String toString() {
                return "Renewed[secrets redacted, expires " + expiresAt + "]";
            }
        }

        /** Not yet (the token is too new to refresh): asked again on a later run. */
        record NotYet(String reason) implements Result {
        }

        /** The token is expired or revoked: the connection needs new credentials (connection health). */
        record Invalid(String providerCode, String reason) implements Result {
        }

        /** No answer, or one that could not be used: asked again on a later run. */
        record Failed(String reason) implements Result {
        }
    }
}
