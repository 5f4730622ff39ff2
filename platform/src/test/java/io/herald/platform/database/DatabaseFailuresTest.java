package io.herald.platform.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.common.jdbc.JdbcException;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.TransactionSystemException;

class DatabaseFailuresTest {

    @Test
    void aPoolThatGaveNoConnectionIsUnavailableHoweverItIsWrapped() {
        SQLTransientConnectionException pool = new SQLTransientConnectionException(
                "herald - Connection is not available, request timed out after 5000ms");
        assertThat(DatabaseFailures.unavailable(pool)).isTrue();
        assertThat(DatabaseFailures.unavailable(new CannotGetJdbcConnectionException("no connection", pool))).isTrue();
        assertThat(DatabaseFailures.unavailable(new JdbcException("Failed to obtain a connection", pool))).isTrue();
        assertThat(DatabaseFailures.unavailable(new CommandExecutionException("failed",
                new EventStoreException("append failed", new JdbcException("x", pool))))).isTrue();
    }

    @Test
    void aSilentNetworkARefusingServerAndAStatementTimeoutAreUnavailable() {
        // what the driver says after its socket timeout, with the read's own exception as the cause
        SQLException ioError = new SQLException("An I/O error occurred while sending to the backend.", "08006",
                new SocketTimeoutException("Read timed out"));
        assertThat(DatabaseFailures.unavailable(new RuntimeException(ioError))).isTrue();
        assertThat(DatabaseFailures.unavailable(new SQLException("sorry, too many clients already", "53300"))).isTrue();
        assertThat(DatabaseFailures.unavailable(new SQLException("the database system is starting up", "57P03"))).isTrue();
        assertThat(DatabaseFailures.unavailable(new SQLException("canceling statement due to statement timeout",
                "57014"))).isTrue();
        assertThat(DatabaseFailures.unavailable(new DatabaseUnavailableException("gone"))).isTrue();
        // a rollback on a connection the pool closed after a failed commit replaces the commit's failure
        assertThat(DatabaseFailures.unavailable(new TransactionSystemException("JDBC rollback failed",
                new SQLException("Connection is closed")))).isTrue();
    }

    @Test
    void otherFailuresAreNot() {
        assertThat(DatabaseFailures.unavailable(new IllegalStateException("a bug"))).isFalse();
        assertThat(DatabaseFailures.unavailable(new DataIntegrityViolationException("duplicate key",
                new SQLException("duplicate key value violates unique constraint", "23505")))).isFalse();
        assertThat(DatabaseFailures.unavailable(new SQLException("syntax error", "42601"))).isFalse();
        assertThat(DatabaseFailures.unavailable(new SQLException("no state"))).isFalse();
    }
}
