package io.herald.query.web;

import io.herald.contracts.error.HeraldRejection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Waits for the query bus in a request thread and lets a handler's refusal reach the HTTP layer as it was thrown. */
public final class QueryAnswers {

    private QueryAnswers() {
    }

    public static <T> T await(CompletableFuture<T> answer) {
        try {
            return answer.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a query answer", e);
        } catch (ExecutionException e) {
            throw unwrap(e.getCause());
        }
    }

    private static RuntimeException unwrap(Throwable failure) {
        Throwable cause = failure;
        while (cause != null) {
            if (cause instanceof HeraldRejection rejection) {
                return rejection;
            }
            cause = cause.getCause();
        }
        if (failure instanceof RuntimeException runtime) {
            return runtime;
        }
        return new CompletionException(failure);
    }
}
