package io.herald.platform.database;

import java.time.Duration;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Admin work that may run one statement for minutes (a projection rebuild's reset of a large table, a
 * migration) lifts the bounds every other statement has: the session's {@code statement_timeout}
 * for the current transaction, and the driver's socket timeout of its connection (the pool sets it
 * back when the connection returns). A silent network still ends such work, after an hour.
 */
public final class LongStatements {

    static final Duration NETWORK_BOUND = Duration.ofHours(1);

    private LongStatements() {
    }

    /** Within a transaction: its statements are not cut off by the session's statement timeout. */
    public static void liftTimeouts(JdbcTemplate jdbc) {
        jdbc.execute("SET LOCAL statement_timeout = 0");
        jdbc.execute((ConnectionCallback<Void>) connection -> {
            connection.setNetworkTimeout(Runnable::run, (int) NETWORK_BOUND.toMillis());
            return null;
        });
    }
}
