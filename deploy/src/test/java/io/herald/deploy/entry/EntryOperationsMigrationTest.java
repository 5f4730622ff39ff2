package io.herald.deploy.entry;

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
 * Publications stored before entries had a line of operations join it when the database is
 * migrated: in the order requested, with the state their stream shows and the post they created.
 */
class EntryOperationsMigrationTest {

    @Test
    void storedPublicationsJoinTheirEntrysLineWithTheirStateAndPost() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        // the schema before entry lines (the last version before them in this module set)
        flyway(database, "2026.12.01.61").migrate();
        try (Connection c = database.connect()) {
            append(c, "pub_a", 0, "PublicationRequestedEvent", requested("entry-1", "fb", 1, "publish"));
            append(c, "pub_a", 1, "PublicationAttemptedEvent", "{\"workspaceId\":\"acme\",\"attemptNo\":1}");
            append(c, "pub_a", 2, "PublicationSucceededEvent", "{\"workspaceId\":\"acme\",\"attemptNo\":1,"
                    + "\"providerRef\":{\"id\":\"1_2\",\"url\":\"https://www.facebook.com/1_2\"}}");
            append(c, "pub_b", 0, "PublicationRequestedEvent", requested("entry-1", "fb", 2, "publish"));
            append(c, "pub_b", 1, "PublicationAttemptedEvent", "{\"workspaceId\":\"acme\",\"attemptNo\":1}");
            append(c, "pub_b", 2, "PublicationFailedEvent", "{\"workspaceId\":\"acme\",\"attemptNo\":1,"
                    + "\"kind\":\"REJECTED\",\"retryAt\":null}");
            append(c, "pub_c", 0, "PublicationRequestedEvent", requested("entry-2", "fb", 1, "publish"));
            append(c, "pub_c", 1, "PublicationAttemptedEvent", "{\"workspaceId\":\"acme\",\"attemptNo\":1}");
            append(c, "pub_d", 0, "PublicationRequestedEvent", requested("entry-3", "wp", 1, "draft"));
            append(c, "pub_d", 1, "PublicationAttemptedEvent", "{\"workspaceId\":\"acme\",\"attemptNo\":1}");
            append(c, "pub_d", 2, "PublicationOutcomeUnknownEvent", "{\"workspaceId\":\"acme\",\"attemptNo\":1}");
            append(c, "pub_d", 3, "PublicationReadBackRequestedEvent", "{\"workspaceId\":\"acme\",\"attemptNo\":1}");
            append(c, "pub_d", 4, "PublicationReconciledEvent", "{\"workspaceId\":\"acme\",\"attemptNo\":1,"
                    + "\"result\":\"FOUND\",\"providerRef\":{\"id\":\"77\",\"url\":null}}");
            append(c, "pub_e", 0, "PublicationRequestedEvent", requested("entry-4", "fb", 1, "publish"));
            append(c, "pub_e", 1, "PublicationAbandonedEvent", "{\"workspaceId\":\"acme\"}");
        }

        flyway(database, "latest").migrate();

        Map<String, String> rows = new TreeMap<>();
        try (Connection c = database.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT publication_id, calendar_entry_id, channel_id, seq, action,"
                     + " content_version, state, coalesce(ref_id, '-') FROM entry_operation")) {
            while (rs.next()) {
                rows.put(rs.getString(1), rs.getString(2) + "/" + rs.getString(3) + " #" + rs.getLong(4) + " "
                        + rs.getString(5) + " v" + rs.getLong(6) + " " + rs.getString(7) + " " + rs.getString(8));
            }
        }
        assertThat(rows).containsOnly(
                Map.entry("pub_a", "entry-1/fb #1 publish v1 DONE 1_2"),
                Map.entry("pub_b", "entry-1/fb #2 publish v2 NOT_EXECUTED -"),
                Map.entry("pub_c", "entry-2/fb #1 publish v1 OPEN -"),
                Map.entry("pub_d", "entry-3/wp #1 draft v1 DONE 77"),
                Map.entry("pub_e", "entry-4/fb #1 publish v1 NOT_EXECUTED -"));
        try (Connection c = database.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT next_seq FROM entry_line WHERE calendar_entry_id = 'entry-1'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).as("the next operation of entry-1 is its third").isEqualTo(2);
        }
    }

    private static Flyway flyway(TestDatabase database, String target) {
        return Flyway.configure().dataSource(database.jdbcUrl(), null, null).locations("classpath:db/migration")
                .target(target).load();
    }

    private static String requested(String entry, String channel, long version, String action) {
        return "{\"publicationId\":\"x\",\"workspaceId\":\"acme\",\"calendarEntryId\":\"" + entry
                + "\",\"contentVersion\":" + version + ",\"channelId\":\"" + channel + "\",\"action\":\"" + action
                + "\",\"requestedAt\":\"2030-01-01T10:00:00Z\"}";
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
}
