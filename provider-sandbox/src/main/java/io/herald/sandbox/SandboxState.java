package io.herald.sandbox;

import java.time.Instant;
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
 * Everything the simulated providers know: registered tokens and sites, the artificial latency,
 * and the stores of scripted faults, posts, images and comments. Delayed answers are completed by one scheduler thread, so a
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

    /** An image in a post: its provider id and the alt text the post gives it (null when none). */
    public record Attachment(String mediaId, String altText) {
    }

    /** One accepted edit: what the post said afterwards. */
    public record Edit(Instant at, String text, String storedText, String title, String status) {
    }

    /**
     * A deleted post as it was just before. {@code how}: {@code deleted} (Facebook, LinkedIn),
     * {@code trash} or {@code force} (WordPress).
     */
    public record Deletion(SandboxPost post, Instant at, String how) {
    }

    private final TokenLapses lapses = new TokenLapses();
    private final Map<String, FacebookToken> facebookTokens = new ConcurrentHashMap<>();
    private final Map<String, LinkedInToken> linkedInTokens = new ConcurrentHashMap<>();
    /** LinkedIn organizations and the member who administers each (a member's token may post as it). */
    private final Map<String, String> linkedInAdministrators = new ConcurrentHashMap<>();
    private final Map<String, WordPressSite> wordPressSites = new ConcurrentHashMap<>();
    private final FaultQueue faults = new FaultQueue();
    private final PostStore posts = new PostStore();
    private final MediaStore media = new MediaStore();
    private final CommentStore comments = new CommentStore();
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

    /** The faults scripted per target. */
    public FaultQueue faults() {
        return faults;
    }

    /** The posts that exist, their edits and the posts deleted. */
    public PostStore posts() {
        return posts;
    }

    /** The images uploaded, the images each post shows and the featured images. */
    public MediaStore media() {
        return media;
    }

    public CommentStore comments() {
        return comments;
    }

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

    /** Credentials that expire or are revoked after some more posts. */
    public TokenLapses lapses() {
        return lapses;
    }

    public void lapse(TokenLapses.Lapse lapse) {
        lapses.add(lapse);
    }

    public void reset() {
        lapses.clear();
        facebookTokens.clear();
        linkedInTokens.clear();
        linkedInAdministrators.clear();
        wordPressSites.clear();
        faults.clear();
        posts.clear();
        media.clear();
        comments.clear();
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

    /** The member administers the organization from now on: their token may post and read as it. */
    public void administer(String organization, String member) {
        linkedInAdministrators.put(organization, member);
    }

    public boolean administers(String member, String organization) {
        return member != null && member.equals(linkedInAdministrators.get(organization));
    }

    public Optional<LinkedInToken> linkedInToken(String token) {
        return Optional.ofNullable(token).map(linkedInTokens::get);
    }

    public Optional<WordPressSite> wordPressSite(String site) {
        return Optional.ofNullable(wordPressSites.get(site));
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
