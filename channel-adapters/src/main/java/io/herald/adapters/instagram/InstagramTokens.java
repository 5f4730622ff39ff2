package io.herald.adapters.instagram;

import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.TokenRefresh;
import io.herald.platform.wire.Json;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * Renews a long-lived Instagram token: {@code GET /refresh_access_token?grant_type=ig_refresh_token}
 * (the token as Bearer) → {@code {access_token, token_type, expires_in}}. A token younger than a day is
 * refused as too new: asked again later.
 */
final class InstagramTokens implements TokenRefresh {

    private final InstagramCalls calls;

    InstagramTokens(InstagramCalls calls) {
        this.calls = calls;
    }

    @Override
    public CompletableFuture<Result> refresh(ChannelConnection connection) {
        return calls.send(calls.graph().get(connection, "/refresh_access_token?grant_type=ig_refresh_token"))
                .thenApply(answer -> {
                    if (answer.ok()) {
                        String token = Json.text(answer.body(), "access_token");
                        long expiresIn = answer.body().path("expires_in").asLong(0);
                        if (token == null || token.isBlank() || expiresIn <= 0) {
                            return (Result) new Result.Failed("Instagram answered the refresh without a token");
                        }
                        Instant expiresAt = calls.http().clock().instant().plusSeconds(expiresIn);
                        return new Result.Renewed(new InstagramSecrets(token, expiresAt), expiresAt);
                    }
                    InstagramError error = answer.error();
                    if (error != null && error.tooNew()) {
                        return new Result.NotYet(error.describe());
                    }
                    if (error != null && error.code() == 190) {
                        return new Result.Invalid(error.providerCode(), error.describe());
                    }
                    return new Result.Failed(answer.detail());
                })
                .exceptionally(failure -> new Result.Failed("the refresh failed: " + failure.getClass().getSimpleName()));
    }
}
