package io.herald.deploy.database;

import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.springframework.stereotype.Component;

/**
 * A migration may run one statement for minutes on a large store (an index, a rewrite of a table):
 * each runs without the session's {@code statement_timeout} and with an hour as its socket timeout
 * (the pool sets that back when the connection returns). Within a migration's transaction the
 * setting ends with it; a migration outside one gets the session's default back after it.
 */
@Component
class MigrationTimeouts implements Callback {

    private static final int NETWORK_BOUND_MILLIS = 3_600_000;

    @Override
    public boolean supports(Event event, Context context) {
        return event == Event.BEFORE_EACH_MIGRATE || event == Event.AFTER_EACH_MIGRATE;
    }

    @Override
    public boolean canHandleInTransaction(Event event, Context context) {
        return true;
    }

    @Override
    public void handle(Event event, Context context) {
        try (Statement statement = context.getConnection().createStatement()) {
            if (event == Event.BEFORE_EACH_MIGRATE) {
                statement.execute("SET statement_timeout = 0");
                context.getConnection().setNetworkTimeout(Runnable::run, NETWORK_BOUND_MILLIS);
            } else {
                statement.execute("RESET statement_timeout");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not set the migration's timeouts", e);
        }
    }

    @Override
    public String getCallbackName() {
        return "herald-migration-timeouts";
    }
}
