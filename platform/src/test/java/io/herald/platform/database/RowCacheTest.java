package io.herald.platform.database;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.LoadingCache;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A row in use is read again in the background while its readers keep the one they have; a row
 * nobody read for its whole time is read again while its reader waits; a reload that finds nothing
 * drops the row.
 */
class RowCacheTest {

    private static final Duration TTL = Duration.ofMillis(400);

    /** The caches' clock: it moves only when a test moves it, however slow the machine is. */
    private final AtomicLong now = new AtomicLong();

    /** Answers the current value; a reload waits until it is let through. */
    private static final class Rows {
        final AtomicReference<String> value = new AtomicReference<>("v1");
        final AtomicInteger loads = new AtomicInteger();
        volatile CountDownLatch reloadGate = new CountDownLatch(0);

        String load(String key) throws InterruptedException {
            if (loads.incrementAndGet() > 1) {
                reloadGate.await();
            }
            return value.get();
        }
    }

    private void elapse(Duration d) {
        now.addAndGet(d.toNanos());
    }

    private LoadingCache<String, String> cache(Duration ttl, Rows rows) {
        return RowCache.of(10, ttl, rows::load, now::get);
    }

    private static void until(java.util.function.BooleanSupplier done) throws InterruptedException {
        for (int i = 0; i < 500 && !done.getAsBoolean(); i++) {
            Thread.sleep(10);
        }
        assertThat(done.getAsBoolean()).isTrue();
    }

    @Test
    void aRowInUseIsReadAgainInTheBackgroundWhileItsReadersKeepTheOldOne() throws Exception {
        Rows rows = new Rows();
        LoadingCache<String, String> cache = cache(TTL, rows);
        assertThat(cache.get("k")).isEqualTo("v1");

        rows.value.set("v2");
        rows.reloadGate = new CountDownLatch(1);
        elapse(TTL.dividedBy(2).plusMillis(50));
        // the reload waits at its gate: a reader that waited for it would never get an answer
        String during = CompletableFuture.supplyAsync(() -> cache.get("k")).get(5, TimeUnit.SECONDS);
        assertThat(during).isEqualTo("v1");

        rows.reloadGate.countDown();
        until(() -> "v2".equals(cache.getIfPresent("k")));
        assertThat(rows.loads.get()).isEqualTo(2);
    }

    @Test
    void aRowNobodyReadForItsWholeTimeIsReadAgainForItsReader() throws Exception {
        Rows rows = new Rows();
        LoadingCache<String, String> cache = cache(TTL, rows);
        assertThat(cache.get("k")).isEqualTo("v1");

        rows.value.set("v2");
        elapse(TTL.plusMillis(100));

        assertThat(cache.get("k")).isEqualTo("v2");
    }

    @Test
    void aReloadThatFindsNothingDropsTheRow() throws Exception {
        Rows rows = new Rows();
        LoadingCache<String, String> cache = cache(TTL, rows);
        assertThat(cache.get("k")).isEqualTo("v1");

        rows.value.set(null);
        elapse(TTL.dividedBy(2).plusMillis(50));
        cache.get("k");

        until(() -> cache.getIfPresent("k") == null);
    }

    @Test
    void aTtlOfZeroKeepsNothing() throws Exception {
        Rows rows = new Rows();
        LoadingCache<String, String> cache = cache(Duration.ZERO, rows);

        cache.get("k");
        rows.value.set("v2");

        assertThat(cache.get("k")).isEqualTo("v2");
    }
}
