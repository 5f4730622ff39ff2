package io.herald.deploy.webhooks;

import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.OutgoingRequest;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.RetryAfter;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.command.webhook.WebhookStore;
import io.herald.platform.tracing.Traces;
import io.herald.query.webhook.WebhookOutbox;
import io.micrometer.tracing.Span;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * Sends the outbox's deliveries, on every node: each poll claims due deliveries (one node at a
 * time per delivery, under a lease) and tries them through the outbound guard: refused
 * addresses, no redirects, answers read up to 64 KiB, {@code herald.webhooks.timeout} per try.
 * 2xx delivers; timeouts, connection errors, 5xx, 408, 429 and 3xx are tried again on the retry
 * schedule (honouring {@code Retry-After}); any other answer fails the delivery at once.
 * <p>
 * Shared fairly between workspaces: claims take the workspaces in turn, a node has at most
 * {@code herald.webhooks.max-in-flight-per-workspace} tries open for one workspace (beside
 * {@code max-in-flight} in all), and a subscription whose last
 * {@code herald.webhooks.pause-after-timeouts} tries timed out or could not connect is paused: its
 * deliveries stay PENDING, unclaimed, instead of holding slots for a timeout each, until an admin
 * resumes it. Deliveries about one publication keep their order through a pause: the earlier
 * ones stay pending, so the later ones stay behind them.
 * <p>
 * Each try is a client span of the trace whose event made the delivery, and sends its
 * {@code traceparent}, so a receiver's work joins the trace that began at intake.
 */
@Component
@EnableConfigurationProperties(WebhookProperties.class)
public class WebhookSender implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(WebhookSender.class);
    /** The most of a receiver's answer Herald reads (issue: 64 KiB). */
    static final int MAX_ANSWER_BYTES = 64 * 1024;
    /** A disabled webhook's deliveries wait; this often they are looked at again. */
    private static final Duration DISABLED_RECHECK = Duration.ofMinutes(1);

    private final WebhookOutbox outbox;
    private final WebhookStore subscriptions;
    private final WebhookProperties properties;
    private final RetrySchedule schedule;
    private final ProviderHttp http;
    private final Clock clock;
    private final InFlightSlots inFlight;
    private final Traces traces;
    private final ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "herald-webhooks");
        thread.setDaemon(true);
        return thread;
    });

    public WebhookSender(WebhookOutbox outbox, WebhookStore subscriptions, WebhookProperties properties,
                         OutboundGuard guard, Clock clock, Traces traces) {
        this.outbox = outbox;
        this.traces = traces;
        this.subscriptions = subscriptions;
        this.properties = properties;
        this.schedule = new RetrySchedule(properties.retrySchedule(), properties.jitter(),
                () -> ThreadLocalRandom.current().nextDouble());
        Duration connect = properties.timeout().dividedBy(2);
        this.http = ProviderHttp.guarded("webhooks", connect, properties.timeout(), clock, guard, MAX_ANSWER_BYTES);
        this.clock = clock;
        this.inFlight = new InFlightSlots(properties.maxInFlight(), properties.maxInFlightPerWorkspace());
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        poller.scheduleWithFixedDelay(this::poll, 0, properties.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Claims what this node can try now and starts the tries; their answers are recorded as they come. */
    void poll() {
        try {
            int free = Math.min(inFlight.free(), properties.batchSize());
            if (free == 0) {
                return;
            }
            List<WebhookOutbox.PausedWebhook> paused = subscriptions.paused().stream()
                    .map(p -> new WebhookOutbox.PausedWebhook(p.workspaceId(), p.webhookId())).toList();
            Instant now = clock.instant();
            List<WebhookOutbox.Claimed> claimed = outbox.claim(now, now.plus(properties.lease()),
                    UUID.randomUUID().toString(), free, inFlight.perWorkspace(), inFlight.busy(), paused);
            for (WebhookOutbox.Claimed delivery : claimed) {
                if (!inFlight.tryAcquire(delivery.workspaceId())) {
                    // only this thread takes slots, and the claim counted them: not expected, but never over the cap
                    outbox.postpone(delivery, now);
                    continue;
                }
                try {
                    tryOnce(delivery).whenComplete((ignored, failure) -> {
                        inFlight.release(delivery.workspaceId());
                        if (failure != null) {
                            log.warn("webhook delivery {}: the try was not recorded: {}", delivery.deliveryId(),
                                    failure.toString());
                        }
                    });
                } catch (RuntimeException e) {
                    inFlight.release(delivery.workspaceId());
                    // e.g. a secret the configured key cannot decrypt: counted as a failed try, so the
                    // schedule still ends it, never a delivery tried forever
                    log.warn("webhook delivery {} could not be tried: {}", delivery.deliveryId(), e.getMessage());
                    retry(delivery, null, "the try could not be made: " + e.getMessage(), Optional.empty(),
                            clock.instant());
                }
            }
        } catch (DataAccessException e) {
            log.warn("webhook deliveries could not be claimed: {}", e.getMessage());
        } catch (RuntimeException e) {
            log.warn("webhook poll failed: {}", e.toString());
        }
    }

    private CompletableFuture<Void> tryOnce(WebhookOutbox.Claimed delivery) {
        Instant now = clock.instant();
        Optional<WebhookStore.Target> found = subscriptions.target(delivery.workspaceId(), delivery.webhookId(), now);
        if (found.isEmpty()) {
            outbox.failed(delivery, null, "the webhook was deleted");
            return CompletableFuture.completedFuture(null);
        }
        WebhookStore.Target target = found.get();
        if (!target.enabled()) {
            outbox.postpone(delivery, now.plus(DISABLED_RECHECK));
            return CompletableFuture.completedFuture(null);
        }
        if (target.paused()) {
            // paused after this poll read the paused ones: given back, and left out of the next claims
            outbox.postpone(delivery, now);
            return CompletableFuture.completedFuture(null);
        }
        URI uri;
        try {
            uri = URI.create(target.url());
        } catch (IllegalArgumentException e) {
            outbox.failed(delivery, null, "the webhook URL cannot be parsed");
            return CompletableFuture.completedFuture(null);
        }
        long timestamp = now.getEpochSecond();
        Span span = traces.startClient("herald webhook", delivery.traceparent())
                .tag("herald.webhook", delivery.webhookId());
        Map<String, String> headers = new TreeMap<>(Map.of(
                "webhook-id", delivery.deliveryId(),
                "webhook-timestamp", Long.toString(timestamp),
                "webhook-signature", WebhookSigner.signature(target.secrets(), delivery.deliveryId(), timestamp,
                        delivery.body()),
                "User-Agent", "Herald-Webhooks/1"));
        String traceparent = traces.traceparent(span);
        if (traceparent != null) {
            headers.put(Traces.TRACEPARENT, traceparent);
        }
        OutgoingRequest request = new OutgoingRequest("POST", uri, headers, delivery.body(), "application/json",
                delivery.deliveryId(), target.url(), List.of()).forWorkspace(delivery.workspaceId().value());
        CompletableFuture<Exchange> call = http.send(request);
        CompletableFuture<Void> recorded = call.copy()
                .orTimeout(properties.timeout().toMillis(), TimeUnit.MILLISECONDS)
                .handle((exchange, failure) -> {
                    if (failure != null) {
                        span.error(failure);
                    }
                    span.end();
                    record(delivery, exchange, failure);
                    return null;
                });
        // the slot is given back once the connection is gone too, not when the try is recorded as timed
        // out: the client notices its own timeout a little later, and until then the connection is open
        // (a workspace's share bounds its connections, not only its unanswered tries)
        return recorded.thenCombine(call.handle((exchange, failure) -> null), (a, b) -> null);
    }

    private void record(WebhookOutbox.Claimed delivery, Exchange exchange, Throwable failure) {
        Instant now = clock.instant();
        if (failure != null || exchange == null) {
            boolean timedOut = failure instanceof TimeoutException
                    || (failure != null && failure.getCause() instanceof TimeoutException);
            String error = timedOut ? "no answer within " + properties.timeout().toSeconds() + " s"
                    : "the try failed: " + failure;
            if (timedOut) {
                unreachable(delivery, error, now);
            }
            retry(delivery, null, error, Optional.empty(), now);
            return;
        }
        if (exchange instanceof Exchange.Unanswered unanswered) {
            unreachable(delivery, unanswered.detail(), now);
        } else {
            subscriptions.reachable(delivery.workspaceId(), delivery.webhookId());
        }
        if (exchange instanceof Exchange.Answered answered) {
            int status = answered.status();
            if (status >= 200 && status < 300) {
                outbox.delivered(delivery, status, now);
            } else if (retryable(status)) {
                String error = status >= 300 && status < 400
                        ? "answered " + status + " (redirects are not followed)" : "answered " + status;
                retry(delivery, status, error, RetryAfter.parse(answered.header("Retry-After"), clock), now);
            } else {
                outbox.failed(delivery, status, "answered " + status + " (not retried)");
            }
        } else if (exchange instanceof Exchange.NotSent notSent) {
            retry(delivery, null, notSent.detail(), Optional.empty(), now);
        } else if (exchange instanceof Exchange.NoAnswer noAnswer) {
            retry(delivery, null, noAnswer.detail(), Optional.empty(), now);
        }
    }

    /** One more try in a row that held its slot for nothing; enough of them pause the subscription. */
    private void unreachable(WebhookOutbox.Claimed delivery, String error, Instant now) {
        String reason = properties.pauseAfterTimeouts() + " tries in a row got no answer; the last: " + error;
        if (subscriptions.unreachable(delivery.workspaceId(), delivery.webhookId(), properties.pauseAfterTimeouts(),
                reason, now)) {
            log.warn("webhook {} of workspace {} paused: {}", delivery.webhookId(), delivery.workspaceId(), reason);
        }
    }

    /** 3xx too: a redirect is never followed (outbound safety), and the receiver may be fixed. */
    static boolean retryable(int status) {
        return status == 408 || status == 429 || (status >= 300 && status < 400) || status >= 500;
    }

    private void retry(WebhookOutbox.Claimed delivery, Integer status, String error, Optional<Duration> retryAfter,
                       Instant now) {
        Optional<Duration> delay = schedule.after(delivery.tries(), retryAfter);
        if (delay.isEmpty()) {
            outbox.failed(delivery, status, error + "; gave up after " + delivery.tries() + " tries");
        } else {
            outbox.retryAt(delivery, status, error, now.plus(delay.get()));
        }
    }

    @Override
    public void destroy() {
        poller.shutdownNow();
    }
}
