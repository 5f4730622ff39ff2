package io.herald.query.stats;

import static io.herald.query.publication.PublicationEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.herald.query.ReadStore;
import io.herald.query.stats.PublicationStatsRepository.HourKey;
import io.herald.testsupport.TestDatabase;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Two batches of the view's segments that add to the same hour rows at once, on a real database:
 * each takes the rows' locks in the table's key order, so the second waits for the first instead
 * of each waiting for the other. In the order the batch happened to gather them, batch B took the
 * later row, waited for the earlier one that A held, and A then waited for B's: a deadlock that
 * aborted one of them.
 */
class PublicationStatsLockOrderIT {

    private final String workspace = "lock-order-" + System.nanoTime();
    private final HourKey earlier = new HourKey(workspace, T0, "SUCCEEDED");
    private final HourKey later = new HourKey(workspace, T0.plus(Duration.ofHours(1)), "SUCCEEDED");
    private final SingleConnectionDataSource a = new SingleConnectionDataSource(TestDatabase.shared().jdbcUrl(), true);
    private final SingleConnectionDataSource b = new SingleConnectionDataSource(TestDatabase.shared().jdbcUrl(), true);
    private final JdbcTemplate watcher = ReadStore.shared().jdbc().getJdbcTemplate();

    @AfterEach
    void close() {
        a.destroy();
        b.destroy();
        watcher.update("DELETE FROM publication_hour_stats WHERE workspace_id = ?", workspace);
    }

    @Test
    void twoBatchesAddingToTheSameRowsAtOnceWaitForEachOtherInsteadOfDeadlocking() throws Exception {
        PublicationStatsRepository first = new PublicationStatsRepository(new NamedParameterJdbcTemplate(a));
        PublicationStatsRepository second = new PublicationStatsRepository(new NamedParameterJdbcTemplate(b));
        long secondBackend = new JdbcTemplate(b).queryForObject("SELECT pg_backend_pid()", Long.class);
        // gathered later row first, as a batch's map may give them
        Map<HourKey, Long> bothLaterFirst = new LinkedHashMap<>();
        bothLaterFirst.put(later, 1L);
        bothLaterFirst.put(earlier, 1L);

        AtomicReference<CompletableFuture<Void>> other = new AtomicReference<>();
        new TransactionTemplate(new DataSourceTransactionManager(a)).executeWithoutResult(status -> {
            first.add(Map.of(earlier, 1L), Map.of());
            other.set(CompletableFuture.runAsync(() -> new TransactionTemplate(new DataSourceTransactionManager(b))
                    .executeWithoutResult(s -> second.add(bothLaterFirst, Map.of()))));
            awaitWaitingForALock(secondBackend);
            // in key order B waits for the earlier row holding nothing; in the order gathered it holds the later one
            first.add(Map.of(later, 1L), Map.of());
        });
        other.get().get(20, TimeUnit.SECONDS);

        assertThat(watcher.queryForList("SELECT publications FROM publication_hour_stats WHERE workspace_id = ?"
                + " ORDER BY hour", Long.class, workspace)).containsExactly(2L, 2L);
    }

    private void awaitWaitingForALock(long backend) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            Boolean waiting = watcher.queryForObject(
                    "SELECT coalesce(bool_or(wait_event_type = 'Lock'), false) FROM pg_stat_activity WHERE pid = ?",
                    Boolean.class, backend);
            if (Boolean.TRUE.equals(waiting)) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("the second batch never waited for a lock");
    }
}
