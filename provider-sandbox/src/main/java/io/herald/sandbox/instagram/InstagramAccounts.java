package io.herald.sandbox.instagram;

import io.herald.sandbox.ArmedFaults;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The simulated Instagram professional accounts: their tokens (with an expiry and an issue time, so
 * a refresh of a token younger than a day is refused), their containers with the status life
 * Meta's have ({@code IN_PROGRESS} → {@code FINISHED} after a configurable delay, {@code PUBLISHED},
 * {@code ERROR}, {@code EXPIRED}), their published media and comments, the publishing limit over a
 * rolling window, and the scripted faults.
 */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class InstagramAccounts {

    /** Scripted misbehaviour for the next {@code times} calls of an account. */
    public enum Fault {
        /** {@code media_publish} publishes, then holds its answer for {@code delayMillis}: a client read timeout. */
        PUBLISH_HOLD_AFTER,
        /** {@code media_publish} holds for {@code delayMillis}, then answers 500 without publishing. */
        PUBLISH_HOLD_BEFORE,
        /** {@code media_publish} publishes, then answers 400 code 24 subcode 4279009 "Media Not Found". */
        PUBLISH_MEDIA_NOT_FOUND_AFTER,
        /**
         * {@code media_publish} answers 400 code 100 subcode 33 "The requested resource does not exist"
         * without publishing; the container stays {@code FINISHED}.
         */
        PUBLISH_MEDIA_NOT_FOUND_BEFORE,
        /** The next container created ends in {@code ERROR} instead of {@code FINISHED}. */
        CONTAINER_ERROR,
        /** The next container created is {@code EXPIRED} once processed. */
        CONTAINER_EXPIRED
    }

    public record FaultSpec(String accountId, Fault fault, long delayMillis, int times) {
    }

    public record Account(String id, String username) {
    }

    /** A token: whose, when issued and until when it is valid. */
    public record Token(String value, String accountId, Instant issuedAt, Instant expiresAt) {
    }

    public static final class Container {
        final String id;
        final String accountId;
        final String caption;
        final String imageUrl;
        final String altText;
        final boolean carouselItem;
        final List<String> children;
        final Instant createdAt;
        final Instant readyAt;
        volatile String status;
        volatile String error;
        volatile String mediaId;
        volatile boolean endsInError;
        volatile boolean endsExpired;

        Container(String id, String accountId, String caption, String imageUrl, String altText, boolean carouselItem,
                  List<String> children, Instant createdAt, Instant readyAt) {
            this.id = id;
            this.accountId = accountId;
            this.caption = caption;
            this.imageUrl = imageUrl;
            this.altText = altText;
            this.carouselItem = carouselItem;
            this.children = children;
            this.createdAt = createdAt;
            this.readyAt = readyAt;
            this.status = "IN_PROGRESS";
        }

        public String id() {
            return id;
        }

        public String caption() {
            return caption;
        }

        public String imageUrl() {
            return imageUrl;
        }

        public String altText() {
            return altText;
        }

        public List<String> children() {
            return children;
        }

        public String mediaId() {
            return mediaId;
        }

        public String error() {
            return error;
        }
    }

    public record Media(String id, String accountId, String caption, Instant timestamp, String containerId,
                        int items) {
        public String permalink() {
            return "https://www.instagram.com/p/" + id + "/";
        }
    }

    public record Comment(String id, String mediaId, String text, Instant timestamp) {
    }

    private final Clock clock = Clock.systemUTC();
    private final AtomicLong ids = new AtomicLong(17_841_460_000_000_000L);
    private final Map<String, Account> accounts = new ConcurrentHashMap<>();
    private final Map<String, Token> tokens = new ConcurrentHashMap<>();
    private final Map<String, Container> containers = new ConcurrentHashMap<>();
    private final List<Media> media = new CopyOnWriteArrayList<>();
    private final List<Comment> comments = new CopyOnWriteArrayList<>();
    private final List<Instant> publishes = new CopyOnWriteArrayList<>();
    private final Map<String, int[]> limits = new ConcurrentHashMap<>();
    private final Map<String, List<Instant>> publishedAt = new ConcurrentHashMap<>();
    private final ArmedFaults<FaultSpec> faults = new ArmedFaults<>();
    private volatile Duration processing = Duration.ofMillis(300);

    String nextId() {
        return Long.toString(ids.incrementAndGet());
    }

    Instant now() {
        return clock.instant();
    }

    /** A new account with a token valid for {@code validFor}, issued {@code age} ago. */
    public Account register(String username, String token, Duration validFor, Duration age) {
        return register(null, username, token, validFor, age);
    }

    /** The same, with the account's id fixed ({@code id}; null: a new one). */
    public Account register(String id, String username, String token, Duration validFor, Duration age) {
        Account account = accounts.values().stream().filter(a -> a.username().equals(username)).findFirst()
                .orElseGet(() -> {
                    Account made = new Account(id != null ? id : nextId(), username);
                    accounts.put(made.id(), made);
                    return made;
                });
        Instant issued = now().minus(age == null ? Duration.ofDays(2) : age);
        tokens.put(token, new Token(token, account.id(), issued,
                issued.plus(validFor == null ? Duration.ofDays(60) : validFor)));
        return account;
    }

    public Optional<Account> account(String id) {
        return Optional.ofNullable(accounts.get(id));
    }

    /** The account a token is valid for now; empty when unknown or expired. */
    Optional<Token> token(String value) {
        return Optional.ofNullable(value == null ? null : tokens.get(value));
    }

    /** The tokens of an account, newest first. */
    public List<Token> tokensOf(String accountId) {
        return tokens.values().stream().filter(t -> t.accountId().equals(accountId))
                .sorted(Comparator.comparing(Token::issuedAt).reversed()).toList();
    }

    /** A refreshed token: a new value valid 60 days; the old one stays valid until it expires (as Meta's). */
    Token refresh(Token old) {
        Token fresh = new Token("IGR" + nextId() + "x" + old.accountId(), old.accountId(), now(),
                now().plus(Duration.ofDays(60)));
        tokens.put(fresh.value(), fresh);
        return fresh;
    }

    public void processing(Duration delay) {
        processing = delay;
    }

    Container create(String accountId, String caption, String imageUrl, String altText, boolean carouselItem,
                     List<String> children) {
        Container container = new Container(nextId(), accountId, caption, imageUrl, altText, carouselItem,
                List.copyOf(children), now(), now().plus(processing));
        if (take(accountId, Fault.CONTAINER_ERROR).isPresent()) {
            container.endsInError = true;
        }
        if (take(accountId, Fault.CONTAINER_EXPIRED).isPresent()) {
            container.endsExpired = true;
        }
        containers.put(container.id, container);
        return container;
    }

    /** A container as it stands now: processing ends at its ready time. */
    public Optional<Container> container(String id) {
        Container container = containers.get(id);
        if (container != null && "IN_PROGRESS".equals(container.status) && !now().isBefore(container.readyAt)) {
            if (container.endsInError) {
                container.status = "ERROR";
                container.error = "Error: Media upload has failed with error code 2207001";
            } else {
                container.status = container.endsExpired ? "EXPIRED" : "FINISHED";
            }
        }
        return Optional.ofNullable(container);
    }

    void fail(Container container, String error) {
        container.status = "ERROR";
        container.error = error;
    }

    public List<Container> containersOf(String accountId) {
        return containers.values().stream().filter(c -> c.accountId.equals(accountId))
                .sorted(Comparator.comparing((Container c) -> c.createdAt)).toList();
    }

    /** {@code quota_usage}, {@code quota_total}, {@code quota_duration} of the rolling window now. */
    int[] limit(String accountId) {
        int[] config = limits.getOrDefault(accountId, new int[] {50, 86_400});
        Instant from = now().minusSeconds(config[1]);
        int usage = (int) publishedAt.getOrDefault(accountId, List.of()).stream().filter(at -> at.isAfter(from))
                .count();
        return new int[] {usage, config[0], config[1]};
    }

    public void limit(String accountId, int total, int durationSeconds) {
        limits.put(accountId, new int[] {total, durationSeconds});
    }

    Media publish(Container container) {
        int items = container.children.isEmpty() ? 1 : container.children.size();
        Media made = new Media(nextId(), container.accountId, container.caption, now(), container.id, items);
        media.add(made);
        container.status = "PUBLISHED";
        container.mediaId = made.id();
        publishedAt.computeIfAbsent(container.accountId, k -> new CopyOnWriteArrayList<>()).add(now());
        publishes.add(now());
        return made;
    }

    /** The account's media, newest first. */
    public List<Media> mediaOf(String accountId) {
        List<Media> list = new ArrayList<>(media.stream().filter(m -> m.accountId().equals(accountId)).toList());
        list.sort(Comparator.comparing(Media::timestamp).reversed());
        return list;
    }

    Optional<Media> media(String id) {
        return media.stream().filter(m -> m.id().equals(id)).findFirst();
    }

    Comment comment(String mediaId, String text) {
        Comment made = new Comment(nextId(), mediaId, text, now());
        comments.add(made);
        return made;
    }

    public List<Comment> commentsOf(String mediaId) {
        return comments.stream().filter(c -> c.mediaId().equals(mediaId)).toList();
    }

    public void fault(FaultSpec spec) {
        faults.add(spec, spec.times());
    }

    Optional<FaultSpec> take(String accountId, Fault fault) {
        return faults.take(spec -> spec.accountId().equals(accountId) && spec.fault() == fault);
    }
}
