package io.herald.adapters.threads;

import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.TokenRefresh;
import io.herald.platform.wire.Json;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * Renews a long-lived Threads token ({@code GET /refresh_access_token?grant_type=th_refresh_token},
 * allowed once the token is a day old and before it expires) into one valid 60 days more.
 */
final class ThreadsTokens implements TokenRefresh {

    private final ThreadsApi api;

    ThreadsTokens(ThreadsApi api) {
        this.api = api;
    }

    @Override
    public CompletableFuture<Result> refresh(ChannelConnection connection) {
        String user = ThreadsApi.user(connection);
        return api.send(api.get(connection, "/refresh_access_token", "grant_type=th_refresh_token", user))
                .thenApply(exchange -> {
                    if (ThreadsApi.ok(exchange)) {
                        var body = ThreadsApi.body(exchange);
                        String token = Json.text(body, "access_token");
                        long expiresIn = body.path("expires_in").asLong(0);
                        if (token == null || token.isBlank() || expiresIn <= 0) {
                            return (Result) new Result.Failed("Threads answered the refresh without a token");
                        }
                        Instant expiresAt = api.clock().instant().plusSeconds(expiresIn);
                        return new Result.Renewed(new ThreadsSecrets(token, expiresAt), expiresAt);
                    }
                    if (ThreadsApi.tokenLost(exchange)) {
                        var answered = (io.herald.adapters.http.Exchange.Answered) exchange;
                        return new Result.Invalid(ThreadsApi.providerCode(answered), ThreadsApi.message(answered));
                    }
                    if (exchange instanceof io.herald.adapters.http.Exchange.Answered answered
                            && answered.status() == 400) {
                        // a token younger than a day, among others: asked again on a later run
                        return new Result.NotYet(ThreadsApi.describe(exchange));
                    }
                    return new Result.Failed(ThreadsApi.describe(exchange));
                })
                .exceptionally(failure -> new Result.Failed("the refresh failed: " + failure.getClass().getSimpleName()));
    }
}
