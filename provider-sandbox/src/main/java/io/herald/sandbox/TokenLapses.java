package io.herald.sandbox;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Credentials that stop working after a number of further posts, as a token expires or is revoked
 * in the middle of a batch: from then on every call with them gets the provider's own answer for
 * that (docs/channels.md#channels), until the credentials are registered anew (a new token or password).
 */
public final class TokenLapses {

    /**
     * @param provider   facebook, linkedin, instagram or wordpress
     * @param credential the token (Facebook, LinkedIn, Instagram) or application password (WordPress)
     * @param afterPosts how many more posts it creates before it lapses (0: lapsed now)
     * @param kind       EXPIRED, REVOKED, PASSWORD_CHANGED, LOGGED_OUT or APP_REMOVED (provider's wording)
     */
    public record Lapse(String provider, String credential, int afterPosts, String kind) {
    }

    private record Countdown(AtomicInteger postsLeft, String kind) {
    }

    private final Map<String, Countdown> byCredential = new ConcurrentHashMap<>();

    void add(Lapse lapse) {
        byCredential.put(key(lapse.provider(), lapse.credential()), new Countdown(
                new AtomicInteger(Math.max(0, lapse.afterPosts())), lapse.kind() == null ? "EXPIRED" : lapse.kind()));
    }

    void clear() {
        byCredential.clear();
    }

    /**
     * The kind of lapse when the credential no longer works; a post while some are left uses one up
     * and works. Other calls work until the posts are used up.
     */
    public Optional<String> lapsed(String provider, String credential, boolean post) {
        Countdown countdown = credential == null ? null : byCredential.get(key(provider, credential));
        if (countdown == null) {
            return Optional.empty();
        }
        if (!post) {
            return countdown.postsLeft().get() > 0 ? Optional.empty() : Optional.of(countdown.kind());
        }
        int left = countdown.postsLeft().getAndUpdate(n -> Math.max(0, n - 1));
        return left > 0 ? Optional.empty() : Optional.of(countdown.kind());
    }

    private static String key(String provider, String credential) {
        return provider + "\n" + credential.replace(" ", "");
    }
}
