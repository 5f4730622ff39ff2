package io.herald.platform.database;

import com.github.benmanes.caffeine.cache.CacheLoader;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import com.github.benmanes.caffeine.cache.Ticker;
import io.herald.platform.threads.BackgroundThreads;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * Rows read from the database and kept in memory for at most {@code ttl}, so a row changed on
 * another node is used here within that time. In the second half of that time a read still answers
 * from memory while the row is read again in the background: a key in use never makes its readers
 * wait for the database together each time it ages out (they did, every {@code ttl}, at the
 * request rate). Only a key nobody read in the second half is read again while its readers wait.
 * A loader that answers {@code null} keeps nothing, and a reload that answers {@code null} drops
 * the row. A reload that fails leaves the row as it was, until it ages out.
 */
public final class RowCache {

    /** Reloads wait here for a database connection, never a request thread. */
    private static final Executor RELOADS = Executors.newFixedThreadPool(2,
            BackgroundThreads.named("herald-row-reload"));

    private RowCache() {
    }

    public static <K, V> LoadingCache<K, V> of(long maximumSize, Duration ttl, CacheLoader<K, V> loader) {
        return of(maximumSize, ttl, loader, Ticker.systemTicker());
    }

    /** As {@link #of(long, Duration, CacheLoader)}, on the given clock (the tests' own). */
    static <K, V> LoadingCache<K, V> of(long maximumSize, Duration ttl, CacheLoader<K, V> loader, Ticker ticker) {
        Caffeine<Object, Object> cache = Caffeine.newBuilder().maximumSize(maximumSize).expireAfterWrite(ttl)
                .executor(RELOADS).ticker(ticker);
        Duration half = ttl.dividedBy(2);
        // a ttl of zero keeps nothing: there is nothing to reload
        return (half.isZero() ? cache : cache.refreshAfterWrite(half)).build(loader);
    }
}
