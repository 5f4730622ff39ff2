package io.herald.sandbox.threads;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * What the simulated Threads API holds: users and their long-lived tokens, containers with their
 * status (IN_PROGRESS until a short delay passed and the image was fetched, then FINISHED or ERROR;
 * PUBLISHED once published; EXPIRED after 24 hours unused), the published threads and replies, the
 * images fetched for containers, and each user's publishing window (250 posts and 1,000 replies in
 * a rolling 24 hours unless set otherwise).
 */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class ThreadsAccounts {

    static final Duration CONTAINER_LIFETIME = Duration.ofHours(24);
    static final Duration TOKEN_LIFETIME = Duration.ofDays(60);

    /** One user; its current token and when that expires. */
    record User(String id, String username) {
    }

    /** How a user's account behaves; set by a test. */
    public record Settings(long finishDelayMillis, int postLimit, int replyLimit, long windowMillis) {

        static Settings defaults() {
            return new Settings(200, 250, 1_000, Duration.ofHours(24).toMillis());
        }
    }

    /** One container as created. {@code fetchError}: why its image could not be fetched, or null. */
    public static final class Container {
        final String id;
        final String userId;
        final String mediaType;
        final String text;
        final String imageUrl;
        final boolean carouselItem;
        final List<String> children;
        final String replyToId;
        final Instant createdAt;
        final Instant finishAt;
        volatile String errorMessage;
        volatile boolean published;
        volatile boolean expired;
        volatile String mediaId;

        Container(String id, String userId, String mediaType, String text, String imageUrl, boolean carouselItem,
                  List<String> children, String replyToId, Instant createdAt, Instant finishAt, String errorMessage) {
            this.id = id;
            this.userId = userId;
            this.mediaType = mediaType;
            this.text = text;
            this.imageUrl = imageUrl;
            this.carouselItem = carouselItem;
            this.children = List.copyOf(children);
            this.replyToId = replyToId;
            this.createdAt = createdAt;
            this.finishAt = finishAt;
            this.errorMessage = errorMessage;
        }

        /** IN_PROGRESS, FINISHED, PUBLISHED, ERROR or EXPIRED, at {@code now}. */
        public String status(Instant now) {
            if (published) {
                return "PUBLISHED";
            }
            if (expired || !createdAt.plus(CONTAINER_LIFETIME).isAfter(now)) {
                return "EXPIRED";
            }
            if (now.isBefore(finishAt)) {
                return "IN_PROGRESS";
            }
            return errorMessage != null ? "ERROR" : "FINISHED";
        }

        public String id() {
            return id;
        }
    }

    /** One published thread or reply. */
    public record Post(String id, String userId, String mediaType, String text, Instant timestamp, String replyToId,
                       String containerId, List<String> children, boolean deleted) {
    }

    /** One image the API fetched for a container: the address, the HTTP status, the type and size answered. */
    public record Fetch(String userId, String url, int status, String contentType, int bytes, Instant at) {
    }

    private record Publishing(String userId, boolean reply, Instant at) {
    }

    private final Map<String, User> users = new ConcurrentHashMap<>();
    private final Map<String, String> tokens = new ConcurrentHashMap<>();
    private final Map<String, Instant> tokenExpiry = new ConcurrentHashMap<>();
    private final Map<String, Instant> tokenIssued = new ConcurrentHashMap<>();
    private final Set<String> revoked = ConcurrentHashMap.newKeySet();
    private final Map<String, Settings> settings = new ConcurrentHashMap<>();
    private final Map<String, Container> containers = new ConcurrentHashMap<>();
    private final Map<String, Post> posts = new ConcurrentHashMap<>();
    private final List<Fetch> fetches = new CopyOnWriteArrayList<>();
    private final List<Publishing> publishing = new CopyOnWriteArrayList<>();
    private final AtomicLong ids = new AtomicLong(17_840_000_000_000_000L);
    private final AtomicLong userIds = new AtomicLong(25_000_000_000_000_000L);

    /** A user with a token (a known token keeps its user), valid 60 days and two days old; returns the user's id. */
    public String register(String username, String token, String userId) {
        return register(username, token, userId, null, null);
    }

    /**
     * A user with a token valid {@code validFor} (60 days when null) and issued {@code age} ago (two
     * days when null: old enough to refresh); a known token keeps its user. Returns the user's id.
     */
    public String register(String username, String token, String userId, Duration validFor, Duration age) {
        String known = tokens.get(token);
        if (known != null) {
            return known;
        }
        String id = userId;
        if (id == null || id.isBlank()) {
            // a new id, never one a fixed registration (the demo user) already holds
            do {
                id = Long.toString(userIds.incrementAndGet());
            } while (users.putIfAbsent(id, new User(id, username)) != null);
        } else {
            users.putIfAbsent(id, new User(id, username));
        }
        Instant issued = Instant.now().minus(age == null ? Duration.ofDays(2) : age);
        revoked.remove(token);
        tokens.put(token, id);
        tokenIssued.put(token, issued);
        tokenExpiry.put(token, issued.plus(validFor == null ? TOKEN_LIFETIME : validFor));
        return id;
    }

    Optional<User> byToken(String token, Instant now) {
        if (token == null) {
            return Optional.empty();
        }
        String id = tokens.get(token);
        Instant expires = tokenExpiry.get(token);
        if (id == null || expires == null || !expires.isAfter(now)) {
            return Optional.empty();
        }
        return Optional.ofNullable(users.get(id));
    }

    Optional<User> user(String id) {
        return Optional.ofNullable(id).map(users::get);
    }

    /** A new token for the user of {@code token}, issued now and valid 60 days; the old one stays valid until it expires. */
    String refresh(String token) {
        String id = tokens.get(token);
        String fresh = "THQ" + Long.toHexString(ids.incrementAndGet()) + Long.toHexString(System.nanoTime());
        Instant now = Instant.now();
        tokens.put(fresh, id);
        tokenIssued.put(fresh, now);
        tokenExpiry.put(fresh, now.plus(TOKEN_LIFETIME));
        return fresh;
    }

    /** When the token was issued, or null for an unknown one. */
    Instant issuedAt(String token) {
        return token == null ? null : tokenIssued.get(token);
    }

    /** Whether the token was revoked (Threads answers it with 190 "the session has been invalidated"). */
    boolean revoked(String token) {
        return token != null && revoked.contains(token);
    }

    /** The token no longer works. */
    public void revoke(String token) {
        if (token != null && tokens.remove(token) != null) {
            revoked.add(token);
        }
        tokenExpiry.remove(token);
        tokenIssued.remove(token);
    }

    /** The user's tokens with when each was issued and expires, newest first: {@code [token, issuedAt, expiresAt]}. */
    public List<String[]> tokens(String userId) {
        return tokens.entrySet().stream().filter(e -> e.getValue().equals(userId) && tokenIssued.containsKey(e.getKey()))
                .sorted(Comparator.comparing((Map.Entry<String, String> e) -> tokenIssued.get(e.getKey())).reversed())
                .map(e -> new String[] {e.getKey(), tokenIssued.get(e.getKey()).toString(),
                        tokenExpiry.get(e.getKey()).toString()})
                .toList();
    }

    public Settings settings(String userId) {
        return settings.getOrDefault(userId, Settings.defaults());
    }

    public void settings(String userId, Settings changed) {
        settings.put(userId, changed);
    }

    String nextId() {
        return Long.toString(ids.incrementAndGet());
    }

    Container addContainer(Container container) {
        containers.put(container.id, container);
        return container;
    }

    Optional<Container> container(String id) {
        return Optional.ofNullable(id).map(containers::get);
    }

    /** The user's containers, newest first. */
    public List<Container> containers(String userId) {
        return containers.values().stream().filter(c -> c.userId.equals(userId))
                .sorted(Comparator.comparing((Container c) -> c.createdAt).reversed()).toList();
    }

    /** Expires the container now, as 24 hours would. */
    public void expire(String containerId) {
        container(containerId).ifPresent(c -> c.expired = true);
    }

    Post publish(Container container, Instant now) {
        Post post = new Post(nextId(), container.userId, container.mediaType, container.text, now,
                container.replyToId, container.id, container.children, false);
        posts.put(post.id(), post);
        container.published = true;
        container.mediaId = post.id();
        publishing.add(new Publishing(container.userId, container.replyToId != null, now));
        return post;
    }

    Optional<Post> post(String id) {
        return Optional.ofNullable(id).map(posts::get).filter(p -> !p.deleted());
    }

    void delete(Post post) {
        posts.put(post.id(), new Post(post.id(), post.userId(), post.mediaType(), post.text(), post.timestamp(),
                post.replyToId(), post.containerId(), post.children(), true));
    }

    /** The user's threads or replies, newest first, deleted ones left out unless asked for. */
    public List<Post> posts(String userId, boolean replies, boolean withDeleted) {
        return posts.values().stream().filter(p -> p.userId().equals(userId))
                .filter(p -> (p.replyToId() != null) == replies)
                .filter(p -> withDeleted || !p.deleted())
                .sorted(Comparator.comparing(Post::timestamp).thenComparing(Post::id).reversed()).toList();
    }

    /** The replies to a thread, oldest first. */
    List<Post> replies(String postId) {
        return posts.values().stream().filter(p -> postId.equals(p.replyToId()) && !p.deleted())
                .sorted(Comparator.comparing(Post::timestamp)).toList();
    }

    /** Posts (or replies) the user published in the rolling window ending now. */
    int used(String userId, boolean reply, Instant now) {
        Instant since = now.minusMillis(settings(userId).windowMillis());
        return (int) publishing.stream().filter(p -> p.userId().equals(userId) && p.reply() == reply
                && p.at().isAfter(since)).count();
    }

    void fetched(Fetch fetch) {
        fetches.add(fetch);
    }

    /** The images fetched for the user's containers, oldest first. */
    public List<Fetch> fetches(String userId) {
        return fetches.stream().filter(f -> f.userId().equals(userId)).toList();
    }
}
