package io.herald.adapters.threads;

import io.herald.adapters.http.Exchange;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.TokenRefresh;
import io.herald.platform.wire.Json;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * Renews a long-lived Threads token ({@code GET /refresh_access_token?grant_type=th_refresh_token},
 * allowed once the token is a day old and before it expires) into one valid 60 days more. Meta's
 * refusal of a token younger than a day says it is "too new" (as Instagram's does): not yet, asked
 * again later. Code 190 (or a 401) is a token expired, revoked or invalidated: {@link Result.Invalid},
 * the connection needs new credentials. Anything else is {@link Result.Failed}, asked again later.
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
                        // 190 (expired, revoked, invalidated session) or 401: only a new grant helps
                        var answered = (Exchange.Answered) exchange;
                        return new Result.Invalid(ThreadsApi.providerCode(answered), ThreadsApi.message(answered));
                    }
                    if (exchange instanceof Exchange.Answered answered && tooNew(answered)) {
                        // a token younger than a day: asked again on a later run
                        return new Result.NotYet(ThreadsApi.describe(exchange));
                    }
                    // any other refusal, a 5xx or no answer: asked again on a later run, and logged
                    return new Result.Failed(ThreadsApi.describe(exchange));
                })
                .exceptionally(failure -> new Result.Failed("the refresh failed: " + failure.getClass().getSimpleName()));
    }

    /** Meta's answer to refreshing a token younger than 24 hours: its message says the token is too new. */
    static boolean tooNew(Exchange.Answered answered) {
        String message = Json.text(Json.parse(answered.body()).path("error"), "message");
        return message != null && message.toLowerCase(Locale.ROOT).contains("too new");
    }
}
