package io.herald.sandbox.mastodon;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * What the simulated instance holds: accounts (id, username, token and its scopes), their statuses
 * (ids ordered by creation time, as Mastodon's are), media attachments and how many more checks
 * each answers "still processing", the {@code Idempotency-Key}s of the last hour per account, and
 * each account's rate-limit window.
 */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class MastodonInstance {

    static final Duration KEY_KEPT = Duration.ofHours(1);
    static final int RATE_LIMIT = 300;
    static final Duration RATE_WINDOW = Duration.ofMinutes(5);
    static final Set<String> ALL_SCOPES = Set.of("read", "write");

    /** One account; {@code scopes} as granted to its token ({@code read}, {@code write}, or narrower ones). */
    record Account(String id, String username, String token, Set<String> scopes) {

        boolean may(String scope) {
            return scopes.contains(scope) || scopes.contains(scope.substring(0, scope.indexOf(':')));
        }
    }

    /** One status as stored; {@code text} is its source. */
    public record Status(String id, String accountId, String text, String inReplyToId, Instant createdAt,
                         List<String> mediaIds, Instant editedAt, boolean deleted) {
    }

    /** One attachment; answers 206 to its next {@code pendingChecks} checks. */
    record Media(String id, String accountId, String description, AtomicInteger pendingChecks) {

        boolean ready() {
            return pendingChecks.get() <= 0;
        }
    }

    private record Key(String statusId, Instant at) {
    }

    /** One create request the instance answered: the {@code Idempotency-Key} it carried (null: none). */
    public record CreateRequest(String accountId, String idempotencyKey, Instant at) {
    }

    private record Window(Instant start, AtomicInteger used) {
    }

    private final Map<String, Account> byToken = new ConcurrentHashMap<>();
    private final Map<String, Account> byId = new ConcurrentHashMap<>();
    private final Map<String, Status> statuses = new ConcurrentHashMap<>();
    private final Map<String, Media> media = new ConcurrentHashMap<>();
    private final Map<String, Key> keys = new ConcurrentHashMap<>();
    private final Map<String, Integer> processingChecks = new ConcurrentHashMap<>();
    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private final List<CreateRequest> createRequests = new CopyOnWriteArrayList<>();
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicLong accounts = new AtomicLong(109_000_000_000_000_000L);
    private volatile boolean repeatedKeyError;

    /** A new account with a token; {@code scopes} null: every scope. Returns its id; a known token keeps its account. */
    public String register(String username, String token, Set<String> scopes) {
        Account known = byToken.get(token);
        if (known != null) {
            return known.id();
        }
        Account account = new Account(Long.toString(accounts.incrementAndGet()), username, token,
                scopes == null || scopes.isEmpty() ? ALL_SCOPES : Set.copyOf(scopes));
        byToken.put(token, account);
        byId.put(account.id(), account);
        return account.id();
    }

    /** The token no longer works (revoked by the user). */
    public void revoke(String accountId) {
        Account account = byId.get(accountId);
        if (account != null) {
            byToken.remove(account.token());
        }
    }

    Optional<Account> byToken(String token) {
        return Optional.ofNullable(token).map(byToken::get);
    }

    /** The account a token was made for, revoked or not. */
    Optional<Account> madeFor(String token) {
        return byId.values().stream().filter(account -> account.token().equals(token)).findFirst();
    }

    Optional<Account> account(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The account's statuses, newest first, deleted ones left out unless asked for. */
    public List<Status> statuses(String accountId, boolean withDeleted) {
        return statuses.values().stream().filter(s -> s.accountId().equals(accountId))
                .filter(s -> withDeleted || !s.deleted())
                .sorted(Comparator.comparing((Status s) -> Long.parseLong(s.id())).reversed()).toList();
    }

    Optional<Status> status(String id) {
        return Optional.ofNullable(id).map(statuses::get).filter(s -> !s.deleted());
    }

    /** Stores a new status created at {@code at}: its id sorts by that time, as a Mastodon id does. */
    public Status create(String accountId, String text, String inReplyToId, List<String> mediaIds, Instant at) {
        String id = Long.toString((at.toEpochMilli() << 16) | (sequence.incrementAndGet() & 0xffff));
        Status status = new Status(id, accountId, text, inReplyToId, at, List.copyOf(mediaIds), null, false);
        statuses.put(id, status);
        return status;
    }

    Status edit(Status status, String text, List<String> mediaIds, Instant at) {
        Status edited = new Status(status.id(), status.accountId(), text, status.inReplyToId(), status.createdAt(),
                List.copyOf(mediaIds), at, false);
        statuses.put(status.id(), edited);
        return edited;
    }

    void delete(Status status) {
        statuses.put(status.id(), new Status(status.id(), status.accountId(), status.text(), status.inReplyToId(),
                status.createdAt(), status.mediaIds(), status.editedAt(), true));
    }

    /** Notes a create request of the account, whatever its answer. */
    void received(String accountId, String key, Instant at) {
        createRequests.add(new CreateRequest(accountId, key, at));
    }

    /** The account's create requests, oldest first. */
    public List<CreateRequest> createRequests(String accountId) {
        return createRequests.stream().filter(r -> r.accountId().equals(accountId)).toList();
    }

    /** The status an {@code Idempotency-Key} of the account's last hour names. */
    Optional<String> keyed(String accountId, String key, Instant now) {
        Key held = keys.get(accountId + "\n" + key);
        return held != null && held.at().plus(KEY_KEPT).isAfter(now) ? Optional.of(held.statusId()) : Optional.empty();
    }

    void keep(String accountId, String key, String statusId, Instant now) {
        keys.put(accountId + "\n" + key, new Key(statusId, now));
    }

    Media upload(String accountId, String description) {
        String id = Long.toString((System.currentTimeMillis() << 16) | (sequence.incrementAndGet() & 0xffff));
        Media stored = new Media(id, accountId, description,
                new AtomicInteger(processingChecks.getOrDefault(accountId, -1)));
        media.put(id, stored);
        return stored;
    }

    Optional<Media> media(String id) {
        return Optional.ofNullable(id).map(media::get);
    }

    /**
     * How a new upload of the account is processed: -1 ready at once (200); n ≥ 0 answered 202, then
     * 206 to its next n checks, then 200; attaching it before that is refused.
     */
    public void processing(String accountId, int checks) {
        processingChecks.put(accountId, checks);
    }

    /** Whether a repeated {@code Idempotency-Key} is answered with a 500, as some servers do. */
    public void repeatedKeyError(boolean on) {
        this.repeatedKeyError = on;
    }

    boolean repeatedKeyError() {
        return repeatedKeyError;
    }

    /** Counts one request of the account; returns the window's {@code [remaining, reset]}. */
    Usage use(String accountId, Instant now) {
        Window window = windows.compute(accountId, (id, w) -> w == null || !w.start().plus(RATE_WINDOW).isAfter(now)
                ? new Window(now, new AtomicInteger()) : w);
        int used = window.used().incrementAndGet();
        return new Usage(Math.max(0, RATE_LIMIT - used), window.start().plus(RATE_WINDOW), used > RATE_LIMIT);
    }

    record Usage(int remaining, Instant reset, boolean exceeded) {
    }
}
