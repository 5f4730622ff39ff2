package io.herald.sandbox;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
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
    private final Map<String, WordPressSite> wordPressSites = new ConcurrentHashMap<>();
    private final Map<String, List<SandboxPost>> posts = new ConcurrentHashMap<>();
    private final Map<String, LinkedList<SandboxFault>> faults = new ConcurrentHashMap<>();
    /** Images by provider and id; listed per target in upload order. */
    private final Map<String, SandboxMedia> media = new ConcurrentHashMap<>();
    private final Map<String, Long> mediaOrder = new ConcurrentHashMap<>();
    /** By provider and post id: the images a post shows, in order, with their alt texts. */
    private final Map<String, List<Attachment>> attachments = new ConcurrentHashMap<>();
    /** By provider and post id: WordPress's featured image (0 once cleared or ignored). */
    private final Map<String, Long> featured = new ConcurrentHashMap<>();
    /** By provider and post id: every edit accepted, oldest first. */
    private final Map<String, List<Edit>> edits = new ConcurrentHashMap<>();
    /** By provider and post id: comments and replies, oldest first. */
    private final Map<String, List<SandboxComment>> comments = new ConcurrentHashMap<>();
    /** By provider and target: posts deleted (WordPress: moved to the trash, or deleted for good). */
    private final Map<String, List<Deletion>> deletions = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong(1_000_000);
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong uploads = new AtomicLong();
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
        wordPressSites.clear();
        posts.clear();
        faults.clear();
        media.clear();
        mediaOrder.clear();
        attachments.clear();
        featured.clear();
        edits.clear();
        comments.clear();
        deletions.clear();
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

    /** The post with this id at the target, if it exists (deleted posts do not). */
    public Optional<SandboxPost> post(String provider, String target, String id) {
        return posts(provider, target).stream().filter(p -> p.id().equals(id)).findFirst();
    }

    /** The post with this id at any target of the provider (LinkedIn's URNs do not name their author). */
    public Optional<SandboxPost> post(String provider, String id) {
        for (Map.Entry<String, List<SandboxPost>> entry : posts.entrySet()) {
            if (entry.getKey().startsWith(provider + "|")) {
                synchronized (entry.getValue()) {
                    for (SandboxPost post : entry.getValue()) {
                        if (post.id().equals(id)) {
                            return Optional.of(post);
                        }
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Replaces the post in place (same position in the list); empty when it does not exist. */
    public Optional<SandboxPost> updatePost(String provider, String target, String id,
                                            UnaryOperator<SandboxPost> change) {
        List<SandboxPost> list = posts.get(key(provider, target));
        if (list == null) {
            return Optional.empty();
        }
        synchronized (list) {
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i).id().equals(id)) {
                    SandboxPost changed = change.apply(list.get(i));
                    list.set(i, changed);
                    return Optional.of(changed);
                }
            }
        }
        return Optional.empty();
    }

    /** Records an accepted edit of a post (the post itself is changed with {@link #updatePost}). */
    public void recordEdit(String provider, SandboxPost after, Instant at) {
        List<Edit> list = edits.computeIfAbsent(key(provider, after.id()), k -> new ArrayList<>());
        synchronized (list) {
            list.add(new Edit(at, after.text(), after.storedText(), after.title(), after.status()));
        }
    }

    public List<Edit> edits(String provider, String postId) {
        return copy(edits.get(key(provider, postId)));
    }

    /** Removes the post; it is kept among the target's deletions. Empty when it did not exist. */
    public Optional<SandboxPost> removePost(String provider, String target, String id, String how, Instant at) {
        List<SandboxPost> list = posts.get(key(provider, target));
        if (list == null) {
            return Optional.empty();
        }
        SandboxPost removed = null;
        synchronized (list) {
            for (Iterator<SandboxPost> it = list.iterator(); it.hasNext(); ) {
                SandboxPost post = it.next();
                if (post.id().equals(id)) {
                    it.remove();
                    removed = post;
                    break;
                }
            }
        }
        if (removed == null) {
            return Optional.empty();
        }
        recordDeletion(provider, removed, how, at);
        return Optional.of(removed);
    }

    /** Notes a deletion of a post that stays listed (WordPress's trash). */
    public void recordDeletion(String provider, SandboxPost post, String how, Instant at) {
        List<Deletion> list = deletions.computeIfAbsent(key(provider, post.target()), k -> new ArrayList<>());
        synchronized (list) {
            list.add(new Deletion(post, at, how));
        }
    }

    public List<Deletion> deletions(String provider, String target) {
        return copy(deletions.get(key(provider, target)));
    }

    /** Whether the post with this id was deleted (not only trashed) at some target of the provider. */
    public Optional<Deletion> deletion(String provider, String id) {
        for (Map.Entry<String, List<Deletion>> entry : deletions.entrySet()) {
            if (entry.getKey().startsWith(provider + "|")) {
                for (Deletion deletion : copy(entry.getValue())) {
                    if (deletion.post().id().equals(id) && !deletion.how().equals("trash")) {
                        return Optional.of(deletion);
                    }
                }
            }
        }
        return Optional.empty();
    }

    public void putMedia(String provider, SandboxMedia image) {
        String key = key(provider, image.id());
        mediaOrder.putIfAbsent(key, uploads.incrementAndGet());
        media.put(key, image);
    }

    public Optional<SandboxMedia> media(String provider, String id) {
        return Optional.ofNullable(id).map(i -> media.get(key(provider, i)));
    }

    /** Changes an image atomically; empty when it does not exist. */
    public Optional<SandboxMedia> updateMedia(String provider, String id, UnaryOperator<SandboxMedia> change) {
        return Optional.ofNullable(media.computeIfPresent(key(provider, id), (k, image) -> change.apply(image)));
    }

    public Optional<SandboxMedia> removeMedia(String provider, String id) {
        mediaOrder.remove(key(provider, id));
        return Optional.ofNullable(media.remove(key(provider, id)));
    }

    /** The target's images, in upload order. */
    public List<SandboxMedia> mediaOf(String provider, String target) {
        return media.entrySet().stream()
                .filter(e -> e.getKey().startsWith(provider + "|") && e.getValue().target().equals(target))
                .sorted(java.util.Comparator.comparing(e -> mediaOrder.getOrDefault(e.getKey(), 0L)))
                .map(Map.Entry::getValue)
                .toList();
    }

    public void attach(String provider, String postId, List<Attachment> images) {
        if (!images.isEmpty()) {
            attachments.put(key(provider, postId), List.copyOf(images));
        }
    }

    public List<Attachment> attachments(String provider, String postId) {
        return attachments.getOrDefault(key(provider, postId), List.of());
    }

    public void feature(String provider, String postId, long mediaId) {
        featured.put(key(provider, postId), mediaId);
    }

    /** The post's featured image; empty when none was ever asked for. */
    public Optional<Long> featured(String provider, String postId) {
        return Optional.ofNullable(featured.get(key(provider, postId)));
    }

    /** Clears the image as the featured image of every post of the provider that has it. */
    public void unfeature(String provider, long mediaId) {
        featured.replaceAll((post, image) -> post.startsWith(provider + "|") && image == mediaId ? 0L : image);
    }

    public void addComment(String provider, SandboxComment comment) {
        List<SandboxComment> list = comments.computeIfAbsent(key(provider, comment.postId()), k -> new ArrayList<>());
        synchronized (list) {
            list.add(comment);
        }
    }

    /** The post's comments and replies, oldest first. */
    public List<SandboxComment> comments(String provider, String postId) {
        return copy(comments.get(key(provider, postId)));
    }

    /** The comment with this id under any post of the provider. */
    public Optional<SandboxComment> comment(String provider, String id) {
        for (Map.Entry<String, List<SandboxComment>> entry : comments.entrySet()) {
            if (entry.getKey().startsWith(provider + "|")) {
                for (SandboxComment comment : copy(entry.getValue())) {
                    if (comment.id().equals(id)) {
                        return Optional.of(comment);
                    }
                }
            }
        }
        return Optional.empty();
    }

    public boolean removeComment(String provider, SandboxComment comment) {
        List<SandboxComment> list = comments.get(key(provider, comment.postId()));
        if (list == null) {
            return false;
        }
        synchronized (list) {
            // its replies go with it
            return list.removeIf(c -> c.id().equals(comment.id()) || comment.id().equals(c.parentId()));
        }
    }

    private static <T> List<T> copy(List<T> list) {
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
