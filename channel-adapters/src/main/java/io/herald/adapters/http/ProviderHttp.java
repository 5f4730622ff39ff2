package io.herald.adapters.http;

import io.herald.contracts.publication.UnknownCause;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLHandshakeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP layer of one provider: one {@link HttpClient} with the provider's connect timeout, a
 * per-request read timeout, and the split every adapter depends on: "the request never left"
 * versus "it left and no answer came". Calls are asynchronous; a slow provider holds a connection,
 * never a thread, and the client's executor (a cached pool, as the client's default) grows with
 * demand instead of being a small fixed pool that one slow provider could drain. Its threads run
 * at the lowest priority: where the JVM maps priorities to the OS, requests are answered first
 * (README).
 */
public final class ProviderHttp {

    private static final Logger log = LoggerFactory.getLogger(ProviderHttp.class);

    private final String provider;
    private final HttpClient client;
    private final Duration readTimeout;
    private final Clock clock;

    public ProviderHttp(String provider, Duration connectTimeout, Duration readTimeout, Clock clock) {
        this.provider = provider;
        this.readTimeout = readTimeout;
        this.clock = clock;
        // HTTP/1.1: one request per connection makes "was the request written" a question about
        // one exchange only, and behaves the same against the providers and the sandbox.
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(Executors.newCachedThreadPool(runnable -> {
                    Thread thread = new Thread(runnable, "herald-" + provider + "-http");
                    thread.setDaemon(true);
                    thread.setPriority(Thread.MIN_PRIORITY);
                    return thread;
                }))
                .build();
    }

    public Clock clock() {
        return clock;
    }

    public CompletableFuture<Exchange> send(OutgoingRequest request) {
        HttpRequest httpRequest;
        try {
            HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri()).timeout(readTimeout);
            request.headers().forEach(builder::header);
            if (request.body() != null) {
                builder.header("Content-Type", request.contentType());
                builder.method(request.method(), HttpRequest.BodyPublishers.ofString(request.body()));
            } else {
                builder.method(request.method(), HttpRequest.BodyPublishers.noBody());
            }
            httpRequest = builder.build();
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(new Exchange.NotSent(request,
                    "the request could not be built: " + Redactor.redact(e.getMessage(), request.secrets()), 0));
        }
        Instant sentAt = clock.instant();
        long startMillis = clock.millis();
        CompletableFuture<HttpResponse<String>> call;
        try {
            call = client.sendAsync(httpRequest, HttpResponse.BodyHandlers.ofString());
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(new Exchange.NotSent(request,
                    "the request could not be sent: " + Redactor.redact(e.getMessage(), request.secrets()), 0));
        }
        return call.handle((response, failure) -> {
            long duration = Math.max(0, clock.millis() - startMillis);
            if (failure == null) {
                log.debug("{} {} {} answered {} in {} ms", provider, request.method(), request.target(),
                        response.statusCode(), duration);
                return new Exchange.Answered(request, response.statusCode(), response.headers(), response.body(),
                        sentAt, duration);
            }
            Throwable cause = unwrap(failure);
            String description = describe(cause, request);
            if (neverLeft(cause)) {
                log.debug("{} {} {} not sent: {}", provider, request.method(), request.target(), description);
                return new Exchange.NotSent(request, description, duration);
            }
            UnknownCause unknown = cause instanceof HttpTimeoutException
                    ? UnknownCause.READ_TIMEOUT
                    : UnknownCause.CONNECTION_RESET;
            log.debug("{} {} {} sent, no answer ({}): {}", provider, request.method(), request.target(), unknown,
                    description);
            return new Exchange.NoAnswer(request, unknown, description, sentAt, duration);
        });
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** Failures that happen before a single request byte is written. */
    static boolean neverLeft(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof HttpConnectTimeoutException
                    || t instanceof ConnectException
                    || t instanceof UnresolvedAddressException
                    || t instanceof UnknownHostException
                    || t instanceof NoRouteToHostException
                    || t instanceof SSLHandshakeException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private String describe(Throwable cause, OutgoingRequest request) {
        String kind;
        if (cause instanceof HttpConnectTimeoutException) {
            kind = "connect timeout";
        } else if (cause instanceof HttpTimeoutException) {
            kind = "no answer within the read timeout of " + readTimeout.toMillis() + " ms";
        } else if (neverLeft(cause)) {
            kind = "could not connect";
        } else if (cause instanceof IOException) {
            kind = "connection closed without a complete answer";
        } else {
            kind = "call failed";
        }
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName()
                : cause.getClass().getSimpleName() + ": " + cause.getMessage();
        return provider + " " + kind + " (" + Redactor.redact(message, request.secrets()) + ")";
    }
}
