package io.herald.adapters.http;

import io.herald.platform.threads.BackgroundThreads;

import io.herald.adapters.outbound.DestinationNotAllowedException;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.contracts.publication.UnknownCause;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLHandshakeException;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP layer of one provider: one HTTP client with the provider's connect timeout, a
 * per-request read timeout, and the split every adapter depends on: "the request never left"
 * versus "it left and no answer came". Calls are asynchronous: a slow provider holds a connection,
 * never a thread. The client's executor runs only short tasks, none of which waits for another
 * task of the pool (reading an answer, completing a call, classifying it; for webhooks, recording
 * the delivery), so each provider has a fixed pool of {@link #EXECUTOR_THREADS}. The client's
 * default, a cached pool, started a thread for every task that found none idle: 173 for Facebook
 * under the benchmark's load, each a stack and a hand-off more. With 16, Herald took less CPU per
 * publication in alternating benchmark runs; with two, end to end slowed by a tenth (bench/results/2026-12-02-runs.md). A host
 * name is looked up on that pool, but a lookup that hangs holds every call to that host whatever the
 * pool, since the JVM lets one lookup of a name run at a time. The threads run at the lowest
 * priority: where the JVM maps priorities to the OS, requests are answered first (docs/operations.md#running-more-than-one-node, "Under load"). Answers
 * are read up to {@link #MAX_ANSWER_BYTES}. Hosts that workspace users supply go through
 * {@link #guarded}, whose client connects only to addresses the outbound guard allowed.
 */
public final class ProviderHttp {

    private static final Logger log = LoggerFactory.getLogger(ProviderHttp.class);

    /** The most of a provider's answer Herald reads; a larger answer counts as unparsable. */
    public static final int MAX_ANSWER_BYTES = 1024 * 1024;

    /** Threads of each provider's executor (see above). */
    static final int EXECUTOR_THREADS = 16;

    private final String provider;
    private final HttpClient client;
    private final GuardedClient guarded;
    /**
     * Clients for the workspaces that have trusted hosts of their own: only those workspaces' calls
     * may reach those hosts. Few, as the operator names them in configuration.
     */
    private final Map<String, GuardedClient> guardedByWorkspace = new ConcurrentHashMap<>();
    private final OutboundGuard guard;
    private final Duration connectTimeout;
    private final ThreadPoolExecutor executor;
    private final int answerLimit;
    private final Duration readTimeout;
    /**
     * The read timeout bounds the wait for the answer's head, and an idle socket at most: an answer
     * whose body never ends, or trickles in, would hold the attempt open for good without this.
     */
    private final Duration answerDeadline;
    private final Clock clock;
    /** Where answers' usage headers go ({@link #reportUsage}); none until the plug-ins are wired. */
    private volatile io.herald.adapters.port.UsageReports usage = new io.herald.adapters.port.UsageReports();

    /** For providers at operator-configured addresses (Facebook, LinkedIn): the JDK client. */
    public ProviderHttp(String provider, Duration connectTimeout, Duration readTimeout, Clock clock) {
        this(provider, connectTimeout, readTimeout, clock, null, MAX_ANSWER_BYTES);
    }

    private ProviderHttp(String provider, Duration connectTimeout, Duration readTimeout, Clock clock,
                         OutboundGuard guard, int answerLimit) {
        this.provider = provider;
        this.readTimeout = readTimeout;
        this.guard = guard;
        this.connectTimeout = connectTimeout;
        this.answerLimit = answerLimit;
        this.answerDeadline = connectTimeout.plus(readTimeout.multipliedBy(2));
        this.clock = clock;
        ThreadPoolExecutor executor = new ThreadPoolExecutor(EXECUTOR_THREADS, EXECUTOR_THREADS, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), threads(provider + "-http"));
        executor.allowCoreThreadTimeOut(true);
        this.executor = executor;
        if (guard == null) {
            // HTTP/1.1: one request per connection makes "was the request written" a question about
            // one exchange only, and behaves the same against the providers and the sandbox.
            this.client = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(connectTimeout)
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .executor(executor)
                    .build();
            this.guarded = null;
        } else {
            this.client = null;
            this.guarded = guardedClient(guard, provider + "-io");
        }
    }

    private GuardedClient guardedClient(OutboundGuard forCalls, String threadName) {
        return new GuardedClient(forCalls, GuardedClient.timeout(connectTimeout), GuardedClient.timeout(readTimeout),
                threads(threadName), executor, answerLimit);
    }

    /** The guarded client for a call: the workspace's own where it has trusted hosts of its own. */
    private GuardedClient guardedFor(String workspaceId) {
        if (!guard.hasOwnTrustedHosts(workspaceId)) {
            return guarded;
        }
        return guardedByWorkspace.computeIfAbsent(workspaceId,
                ws -> guardedClient(guard.forWorkspace(ws), provider + "-io-" + ws));
    }

    /**
     * For hosts a workspace user supplies (a WordPress site): every connection goes only to
     * addresses the guard allowed (docs/architecture.md#outbound-safety).
     */
    public static ProviderHttp guarded(String provider, Duration connectTimeout, Duration readTimeout, Clock clock,
                                       OutboundGuard guard) {
        return guarded(provider, connectTimeout, readTimeout, clock, guard, MAX_ANSWER_BYTES);
    }

    /** As {@link #guarded(String, Duration, Duration, Clock, OutboundGuard)}, reading answers up to a smaller limit. */
    public static ProviderHttp guarded(String provider, Duration connectTimeout, Duration readTimeout, Clock clock,
                                       OutboundGuard guard, int answerLimit) {
        return new ProviderHttp(provider, connectTimeout, readTimeout, clock, Objects.requireNonNull(guard, "guard"),
                answerLimit);
    }

    private static ThreadFactory threads(String name) {
        return BackgroundThreads.named("herald-" + name);
    }

    public Clock clock() {
        return clock;
    }

    /** Answers' usage headers go to {@code reports} (the plug-ins' relay). */
    public ProviderHttp reportingUsageTo(io.herald.adapters.port.UsageReports reports) {
        this.usage = reports;
        return this;
    }

    /**
     * Reports what an answer on {@code connection} said about its budget, read by the provider's own
     * {@code reader} (its header names); an exchange without an answer says nothing.
     */
    public void reportUsage(io.herald.adapters.port.ChannelConnection connection, Exchange exchange,
                            java.util.function.Function<Exchange.Answered,
                                    java.util.Optional<io.herald.adapters.port.ProviderUsage>> reader) {
        if (exchange instanceof Exchange.Answered answered) {
            try {
                reader.apply(answered).ifPresent(report -> usage.report(connection, report));
            } catch (RuntimeException e) {
                log.debug("{}: usage headers not understood: {}", provider, e.toString());
            }
        }
    }

    public CompletableFuture<Exchange> send(OutgoingRequest request) {
        Instant sentAt = clock.instant();
        long startMillis = clock.millis();
        CompletableFuture<GuardedClient.Answer> call;
        try {
            call = (guarded != null ? guardedFor(request.workspaceId()).send(request) : sendJdk(request))
                    .orTimeout(answerDeadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(new Exchange.NotSent(request,
                    "the request could not be sent: " + Redactor.redact(e.getMessage(), request.secrets()), 0));
        }
        return call.handle((response, failure) -> {
            long duration = Math.max(0, clock.millis() - startMillis);
            if (failure == null) {
                log.debug("{} {} {} answered {} in {} ms{}", provider, request.method(), request.target(),
                        response.status(), duration, response.body().tooLarge() ? " (answer too large, not read)" : "");
                return new Exchange.Answered(request, response.status(), response.headers(), response.body().text(),
                        sentAt, duration, response.body().tooLarge());
            }
            Throwable cause = unwrap(failure);
            String description = describe(cause, request);
            if (neverLeft(cause)) {
                log.debug("{} {} {} not sent: {}", provider, request.method(), request.target(), description);
                return new Exchange.NotSent(request, description, duration);
            }
            UnknownCause unknown = cause instanceof HttpTimeoutException || cause instanceof SocketTimeoutException
                    || cause instanceof TimeoutException
                    ? UnknownCause.READ_TIMEOUT
                    : UnknownCause.CONNECTION_RESET;
            log.debug("{} {} {} sent, no answer ({}): {}", provider, request.method(), request.target(), unknown,
                    description);
            return new Exchange.NoAnswer(request, unknown, description, sentAt, duration);
        });
    }

    private CompletableFuture<GuardedClient.Answer> sendJdk(OutgoingRequest request) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri()).timeout(readTimeout);
        request.headers().forEach(builder::header);
        if (request.hasBody()) {
            builder.header("Content-Type", request.contentType());
            builder.method(request.method(), HttpRequest.BodyPublishers.ofByteArray(request.bodyBytes()));
        } else {
            builder.method(request.method(), HttpRequest.BodyPublishers.noBody());
        }
        return client.sendAsync(builder.build(), LimitedBody.handler(MAX_ANSWER_BYTES))
                .thenApply(r -> new GuardedClient.Answer(r.statusCode(), r.headers(), r.body()));
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
                    || t instanceof ConnectTimeoutException
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
        if (cause instanceof DestinationNotAllowedException) {
            return provider + " destination not allowed: " + cause.getMessage();
        } else if (cause instanceof HttpConnectTimeoutException || cause instanceof ConnectTimeoutException) {
            kind = "connect timeout";
        } else if (cause instanceof HttpTimeoutException || cause instanceof SocketTimeoutException) {
            kind = "no answer within the read timeout of " + readTimeout.toMillis() + " ms";
        } else if (cause instanceof TimeoutException) {
            kind = "no complete answer within " + answerDeadline.toMillis() + " ms";
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
