package io.herald.adapters.sandbox;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * Everything the simulated providers know: registered tokens, sites, posts per target, scripted
 * faults and the artificial latency. Delayed answers are completed by one scheduler thread, so a
 * held request costs a timer entry, not a thread.
 */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class SandboxState implements DisposableBean, SmartLifecycle {

    public enum FacebookTokenKind { PAGE, USER }

    public record FacebookToken(String token, String pageId, FacebookTokenKind kind) {
    }

    public record LinkedInToken(String token, String author, Set<String> scopes) {
    }

    public record WordPressSite(String site, String username, String applicationPassword, boolean plugin) {
    }

    private final Map<String, FacebookToken> facebookTokens = new ConcurrentHashMap<>();
    private final Map<String, LinkedInToken> linkedInTokens = new ConcurrentHashMap<>();
    private final Map<String, WordPressSite> wordPressSites = new ConcurrentHashMap<>();
    private final Map<String, List<SandboxPost>> posts = new ConcurrentHashMap<>();
    private final Map<String, LinkedList<SandboxFault>> faults = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong(1_000_000);
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong mostPending = new AtomicLong();
    private volatile long latencyMillis;
    private volatile boolean running;
    private final Set<DeferredResult<ResponseEntity<String>>> held = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "sandbox-timer");
        t.setDaemon(true);
        return t;
    });

    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    public long nextId() {
        return ids.incrementAndGet();
    }

    public long countRequest() {
        return requests.incrementAndGet();
    }

    public long requestCount() {
        return requests.get();
    }

    /** An answer is waiting on the timer: counted to show how many requests are held at once. */
    void answerPending() {
        long now = pending.incrementAndGet();
        mostPending.accumulateAndGet(now, Math::max);
    }

    void answerSent() {
        pending.decrementAndGet();
    }

    /** The most requests that were waiting for a delayed answer at the same time. */
    public long mostPendingAnswers() {
        return mostPending.get();
    }

    public long latencyMillis() {
        return latencyMillis;
    }

    public void setLatencyMillis(long millis) {
        this.latencyMillis = Math.max(0, millis);
    }

    public void reset() {
        facebookTokens.clear();
        linkedInTokens.clear();
        wordPressSites.clear();
        posts.clear();
        faults.clear();
        latencyMillis = 0;
        mostPending.set(pending.get());
    }

    public void register(FacebookToken token) {
        facebookTokens.put(token.token(), token);
    }

    public void register(LinkedInToken token) {
        linkedInTokens.put(token.token(), token);
    }

    public void register(WordPressSite site) {
        wordPressSites.put(site.site(), site);
    }

    public Optional<FacebookToken> facebookToken(String token) {
        return Optional.ofNullable(token).map(facebookTokens::get);
    }

    public Optional<LinkedInToken> linkedInToken(String token) {
        return Optional.ofNullable(token).map(linkedInTokens::get);
    }

    public Optional<WordPressSite> wordPressSite(String site) {
        return Optional.ofNullable(wordPressSites.get(site));
    }

    private static String key(String provider, String target) {
        return provider + "|" + target;
    }

    public void addFault(SandboxFault fault) {
        LinkedList<SandboxFault> queue = faults.computeIfAbsent(key(fault.provider(), fault.target()),
                k -> new LinkedList<>());
        synchronized (queue) {
            queue.addLast(fault);
        }
    }

    public void clearFaults() {
        faults.clear();
    }

    /** Takes the first queued fault of the target that covers this request, counting it down. */
    public Optional<SandboxFault> takeFault(String provider, String target, SandboxFault.Operation operation) {
        LinkedList<SandboxFault> queue = faults.get(key(provider, target));
        if (queue == null) {
            return Optional.empty();
        }
        synchronized (queue) {
            for (Iterator<SandboxFault> it = queue.iterator(); it.hasNext(); ) {
                SandboxFault fault = it.next();
                if (fault.operation().covers(operation)) {
                    it.remove();
                    if (fault.times() > 1) {
                        queue.addFirst(fault.withTimes(fault.times() - 1));
                    }
                    return Optional.of(fault);
                }
            }
        }
        return Optional.empty();
    }

    public void addPost(String provider, SandboxPost post) {
        List<SandboxPost> list = posts.computeIfAbsent(key(provider, post.target()), k -> new ArrayList<>());
        synchronized (list) {
            list.add(post);
        }
    }

    /** The target's posts, oldest first. */
    public List<SandboxPost> posts(String provider, String target) {
        List<SandboxPost> list = posts.get(key(provider, target));
        if (list == null) {
            return List.of();
        }
        synchronized (list) {
            return List.copyOf(list);
        }
    }

    public Optional<SandboxPost> lastPost(String provider, String target) {
        List<SandboxPost> all = posts(provider, target);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }

    public void later(long delayMillis, Runnable action) {
        if (delayMillis <= 0) {
            action.run();
        } else {
            scheduler.schedule(action, delayMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** Keeps a never-answered request until the client leaves, the hold expires or the sandbox stops. */
    public void hold(DeferredResult<ResponseEntity<String>> result) {
        held.add(result);
        result.onCompletion(() -> held.remove(result));
    }

    @Override
    public void destroy() {
        scheduler.shutdownNow();
    }

    @Override
    public void start() {
        running = true;
    }

    /**
     * Answers every held request before the web server's graceful shutdown waits for them: a
     * request the sandbox plays dead on would otherwise hold the shutdown for its full grace period.
     */
    @Override
    public void stop() {
        running = false;
        for (DeferredResult<ResponseEntity<String>> result : held) {
            result.setResult(ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).build());
        }
        held.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }
}
