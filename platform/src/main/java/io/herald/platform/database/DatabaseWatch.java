package io.herald.platform.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the database answers, asked with a bound of its own. A database that goes silent (a
 * partition, a stalled proxy: packets vanish and nobody resets) leaves every read waiting for the
 * driver's socket timeout; the watch instead asks on a connection of its own, apart from the
 * application's pool (which may be held by those waiting reads), and gives the answer "no" when
 * none came within {@code timeout}. A check still waiting is joined, not repeated, so the checks
 * never pile up threads or connections.
 *
 * <p>Asked every {@code interval} in the background, and by each readiness probe. After
 * {@link #REFUSE_AFTER} failed checks in a row, {@link #unreachable()} holds until a check
 * succeeds: requests are then refused at once instead of each waiting for its own timeout.
 */
public final class DatabaseWatch implements AutoCloseable {

    /** One slow answer (a pause of the machine) refuses nothing; two in a row do. */
    static final int REFUSE_AFTER = 2;

    private static final Logger log = LoggerFactory.getLogger(DatabaseWatch.class);

    private final DataSource connections;
    private final HikariDataSource ownPool;
    private final Duration timeout;
    private final ExecutorService checker;
    private final ScheduledExecutorService ticker;
    private final AtomicInteger failures = new AtomicInteger();
    private CompletableFuture<Boolean> inFlight = CompletableFuture.completedFuture(true);

    /**
     * @param application the application's data source: a Hikari pool is copied into a pool of one
     *                    connection for the checks; another data source is asked as it is
     */
    public DatabaseWatch(DataSource application, Duration timeout, Duration interval) {
        this.timeout = timeout;
        this.ownPool = application instanceof HikariDataSource hikari ? ownPool(hikari, timeout) : null;
        this.connections = ownPool != null ? ownPool : application;
        // not background threads (BackgroundThreads): a readiness probe waits on the check, and at the
        // lowest priority a busy node would answer it late and leave the Service for no reason
        this.checker = Executors.newSingleThreadExecutor(runnable -> thread(runnable, "herald-db-check"));
        this.ticker = Executors.newSingleThreadScheduledExecutor(runnable -> thread(runnable, "herald-db-watch"));
        ticker.scheduleWithFixedDelay(this::check, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static HikariDataSource ownPool(HikariDataSource application, Duration timeout) {
        HikariConfig config = new HikariConfig();
        application.copyStateTo(config);
        config.setPoolName(application.getPoolName() + "-watch");
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        // one connection kept: it is never idle long enough to be retired
        config.setIdleTimeout(0);
        config.setConnectionTimeout(Math.max(250, timeout.toMillis()));
        config.setValidationTimeout(Math.max(250, timeout.toMillis() / 2));
        // the application's pool already failed the start if the database was missing
        config.setInitializationFailTimeout(-1);
        config.setMetricRegistry(null);
        config.setMetricsTrackerFactory(null);
        config.setHealthCheckRegistry(null);
        config.setRegisterMbeans(false);
        return new HikariDataSource(config);
    }

    private static Thread thread(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Asks the database (or joins the check in progress) and waits at most the timeout: true if it answered. */
    public boolean check() {
        CompletableFuture<Boolean> answer = current();
        boolean answered;
        try {
            answered = answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            answered = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        if (answered) {
            if (failures.getAndSet(0) >= REFUSE_AFTER) {
                log.info("the database answers again");
            }
        } else if (failures.incrementAndGet() == REFUSE_AFTER) {
            log.warn("the database did not answer within {} twice in a row; requests are refused until it does",
                    timeout);
        }
        return answered;
    }

    /** Whether the last checks failed: requests that need the database are refused at once. */
    public boolean unreachable() {
        return failures.get() >= REFUSE_AFTER;
    }

    private synchronized CompletableFuture<Boolean> current() {
        if (inFlight.isDone()) {
            inFlight = CompletableFuture.supplyAsync(this::ask, checker);
        }
        return inFlight;
    }

    private boolean ask() {
        int seconds = (int) Math.max(1, (timeout.toMillis() + 999) / 1000);
        try (Connection connection = connections.getConnection()) {
            return connection.isValid(seconds);
        } catch (SQLException | RuntimeException e) {
            log.debug("database check failed: {}", e.toString());
            return false;
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        checker.shutdownNow();
        if (ownPool != null) {
            ownPool.close();
        }
    }
}
