package io.herald.deploy.publishing;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.testsupport.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * Work in flight under the sagas and their deadlines becomes timer rows: a database at the schema
 * before the lean core, holding publications in every state that has due work, is migrated, and
 * each publication gets the row its state needs (or none).
 */
class TimersFromSagasMigrationTest {

    private static final String WS = "\"workspaceId\":\"acme\"";

    @Test
    void eachPublicationInFlightGetsTheTimerRowItsStateNeeds() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        flyway(database, "2026.12.01.40").migrate();
        try (Connection c = database.connect()) {
            // attempt 1 in flight
            append(c, "pub_inflight", 0, "PublicationRequestedEvent", requested(null));
            append(c, "pub_inflight", 1, "PublicationAttemptedEvent", attempted(1, "2030-01-01T10:02:00Z"));
            // a retry is due
            append(c, "pub_retry", 0, "PublicationRequestedEvent", requested(null));
            append(c, "pub_retry", 1, "PublicationAttemptedEvent", attempted(1, "2030-01-01T10:02:00Z"));
            append(c, "pub_retry", 2, "PublicationFailedEvent", "{" + WS + ",\"attemptNo\":1,\"kind\":\"NOT_SENT\","
                    + "\"retryAt\":\"2030-01-01T10:00:05Z\",\"failedAt\":\"2030-01-01T10:00:01Z\"}");
            // scheduled for later
            append(c, "pub_scheduled", 0, "PublicationRequestedEvent", requested("\"2999-01-01T10:00:00Z\""));
            // unknown outcome, its reconciliation saga had read once
            append(c, "pub_unknown", 0, "PublicationRequestedEvent", requested(null));
            append(c, "pub_unknown", 1, "PublicationAttemptedEvent", attempted(1, "2030-01-01T10:02:00Z"));
            append(c, "pub_unknown", 2, "PublicationOutcomeUnknownEvent", "{" + WS + ",\"attemptNo\":1,"
                    + "\"cause\":\"READ_TIMEOUT\"}");
            saga(c, "saga-1", "pub_unknown", "{\"attemptNo\":1,\"reads\":1,\"settled\":false}");
            // an operator asked for a re-attempt (revision 1: no attempt number)
            append(c, "pub_reattempt", 0, "PublicationRequestedEvent", requested(null));
            append(c, "pub_reattempt", 1, "PublicationAttemptedEvent", attempted(1, "2030-01-01T10:02:00Z"));
            append(c, "pub_reattempt", 2, "PublicationFailedEvent", "{" + WS + ",\"attemptNo\":1,"
                    + "\"kind\":\"REJECTED\",\"retryAt\":null}");
            append(c, "pub_reattempt", 3, "PublicationExecutionRequestedEvent", "{" + WS
                    + ",\"trigger\":\"OPERATOR_REATTEMPT\"}");
            // done: no row
            append(c, "pub_done", 0, "PublicationRequestedEvent", requested(null));
            append(c, "pub_done", 1, "PublicationAttemptedEvent", attempted(1, "2030-01-01T10:02:00Z"));
            append(c, "pub_done", 2, "PublicationSucceededEvent", "{" + WS + ",\"attemptNo\":1}");
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO scheduled_tasks (task_name, task_instance, execution_time, picked,"
                        + " version) VALUES ('AxonDeadline', 'x', now(), false, 1)");
                s.executeUpdate("INSERT INTO token_entry (processor_name, segment) VALUES ('publishing-saga', 0)");
            }
        }

        flyway(database, "latest").migrate();

        Map<String, String> rows = new TreeMap<>();
        try (Connection c = database.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT publication_id, kind, attempt_no, coalesce(trigger, '-'), read_no,"
                     + " due_at > now() + interval '1 day' FROM publication_timer")) {
            while (rs.next()) {
                rows.put(rs.getString(1), rs.getString(2) + " " + rs.getInt(3) + " " + rs.getString(4) + " "
                        + rs.getInt(5) + (rs.getBoolean(6) ? " later" : " now"));
            }
            assertThat(count(s, "SELECT count(*) FROM scheduled_tasks WHERE task_name LIKE 'AxonDeadline%'")).isZero();
            assertThat(count(s, "SELECT count(*) FROM token_entry WHERE processor_name = 'publishing-saga'")).isZero();
            assertThat(count(s, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'saga_entry'"))
                    .isZero();
            // the dispatcher starts after the events the rows above stand for, in two segments
            assertThat(count(s, "SELECT count(*) FROM token_entry WHERE processor_name = 'publication-dispatcher'"
                    + " AND convert_from(token, 'UTF8')::jsonb ->> 'index' = (SELECT max(global_index)::text"
                    + " FROM domain_event_entry)")).isEqualTo(2);
        }
        assertThat(rows).containsOnly(
                Map.entry("pub_inflight", "ATTEMPT_EXPIRY 1 - 0 later"),
                Map.entry("pub_retry", "ATTEMPT_DUE 2 RETRY 0 later"),
                Map.entry("pub_scheduled", "ATTEMPT_DUE 1 INITIAL 0 later"),
                Map.entry("pub_unknown", "READ_BACK_DUE 1 - 2 now"),
                Map.entry("pub_reattempt", "ATTEMPT_DUE 2 OPERATOR_REATTEMPT 0 now"));
    }

    private static Flyway flyway(TestDatabase database, String target) {
        return Flyway.configure().dataSource(database.jdbcUrl(), null, null).locations("classpath:db/migration")
                .target(target).load();
    }

    private static String requested(String scheduledAt) {
        return "{" + WS + ",\"scheduledAt\":" + scheduledAt + ",\"requestedAt\":\"2030-01-01T10:00:00Z\"}";
    }

    private static String attempted(int attemptNo, String expiresAt) {
        return "{" + WS + ",\"attemptNo\":" + attemptNo + ",\"trigger\":\"INITIAL\","
                + "\"startedAt\":\"2030-01-01T10:00:00Z\",\"expiresAt\":\"" + expiresAt + "\"}";
    }

    private static void append(Connection c, String id, int sequence, String type, String payload) throws Exception {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO domain_event_entry (aggregate_identifier,"
                + " sequence_number, type, event_identifier, payload, payload_revision, payload_type, time_stamp)"
                + " VALUES (?, ?, 'Publication', ?, ?, '1', ?, '2030-01-01T10:00:00Z')")) {
            s.setString(1, id);
            s.setLong(2, sequence);
            s.setString(3, id + "-" + sequence);
            s.setBytes(4, payload.getBytes(StandardCharsets.UTF_8));
            s.setString(5, "io.herald.contracts.publication." + type);
            s.executeUpdate();
        }
    }

    private static void saga(Connection c, String sagaId, String publicationId, String state) throws Exception {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO saga_entry (saga_id, revision, saga_type,"
                + " serialized_saga) VALUES (?, null, 'io.herald.reconciliation.ReconciliationSaga', ?)")) {
            s.setString(1, sagaId);
            s.setBytes(2, state.getBytes(StandardCharsets.UTF_8));
            s.executeUpdate();
        }
        try (PreparedStatement s = c.prepareStatement("INSERT INTO association_value_entry (association_key,"
                + " association_value, saga_id, saga_type) VALUES ('publicationId', ?, ?,"
                + " 'io.herald.reconciliation.ReconciliationSaga')")) {
            s.setString(1, publicationId);
            s.setString(2, sagaId);
            s.executeUpdate();
        }
    }

    private static long count(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
