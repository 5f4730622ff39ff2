package io.herald.platform.database;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.LoadingCache;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A row in use is read again in the background while its readers keep the one they have; a row
 * nobody read for its whole time is read again while its reader waits; a reload that finds nothing
 * drops the row.
 */
class RowCacheTest {

    private static final Duration TTL = Duration.ofMillis(400);

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

    private static void sleep(Duration d) throws InterruptedException {
        Thread.sleep(d.toMillis());
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
        LoadingCache<String, String> cache = RowCache.of(10, TTL, rows::load);
        assertThat(cache.get("k")).isEqualTo("v1");

        rows.value.set("v2");
        rows.reloadGate = new CountDownLatch(1);
        sleep(TTL.dividedBy(2).plusMillis(50));
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
        LoadingCache<String, String> cache = RowCache.of(10, TTL, rows::load);
        assertThat(cache.get("k")).isEqualTo("v1");

        rows.value.set("v2");
        sleep(TTL.plusMillis(100));

        assertThat(cache.get("k")).isEqualTo("v2");
    }

    @Test
    void aReloadThatFindsNothingDropsTheRow() throws Exception {
        Rows rows = new Rows();
        LoadingCache<String, String> cache = RowCache.of(10, TTL, rows::load);
        assertThat(cache.get("k")).isEqualTo("v1");

        rows.value.set(null);
        sleep(TTL.dividedBy(2).plusMillis(50));
        cache.get("k");

        until(() -> cache.getIfPresent("k") == null);
    }

    @Test
    void aTtlOfZeroKeepsNothing() throws Exception {
        Rows rows = new Rows();
        LoadingCache<String, String> cache = RowCache.of(10, Duration.ZERO, rows::load);

        cache.get("k");
        rows.value.set("v2");

        assertThat(cache.get("k")).isEqualTo("v2");
    }
}
