package io.herald.platform.database;

import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;

/**
 * Tells a failure of the database's availability (no connection within the pool's bound, a read
 * that timed out on a silent network, a server refusing connections, a statement cut off by its
 * timeout) from any other failure, wherever it is wrapped (Spring's translation, Axon's event store
 * and command bus wrappers). Such a failure is answered 503 {@code unavailable} with
 * {@code Retry-After}: the request may be sent again as it is.
 */
public final class DatabaseFailures {

    /**
     * SQLSTATE classes and codes of an unavailable database: 08 connection exceptions, 53
     * insufficient resources (53300 too many connections), 57P01–57P03 administrator shutdown,
     * crash shutdown, cannot connect now, 57014 a statement cancelled by its timeout.
     */
    private static final Set<String> STATE_CLASSES = Set.of("08", "53");
    private static final Set<String> STATES = Set.of("57P01", "57P02", "57P03", "57014");
    /**
     * HikariCP's answer, without a SQLSTATE, on a connection it already closed because the driver
     * reported the connection broken (as when a rollback follows a commit whose answer never came).
     */
    private static final String POOL_CLOSED_CONNECTION = "Connection is closed";

    /** The {@code Retry-After} of such an answer, in seconds: about the time a readiness probe needs to notice. */
    public static final String RETRY_AFTER_SECONDS = "5";
    /** The {@code detail} of such an answer. */
    public static final String DETAIL = "the database does not answer; send the request again after the seconds in Retry-After";

    private DatabaseFailures() {
    }

    public static boolean unavailable(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 32; t = t.getCause(), depth++) {
            if (t instanceof DatabaseUnavailableException
                    || t instanceof SQLTransientConnectionException
                    || t instanceof SQLTimeoutException
                    || t instanceof SocketTimeoutException
                    || t instanceof DataAccessResourceFailureException
                    || t instanceof TransientDataAccessResourceException
                    || t instanceof QueryTimeoutException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().length() == 5
                    && (STATE_CLASSES.contains(sql.getSQLState().substring(0, 2)) || STATES.contains(sql.getSQLState()))) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() == null
                    && POOL_CLOSED_CONNECTION.equals(sql.getMessage())) {
                return true;
            }
        }
        return false;
    }
}
