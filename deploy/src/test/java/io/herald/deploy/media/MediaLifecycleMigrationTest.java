package io.herald.deploy.media;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.testsupport.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * Images stored before media had a lifecycle: each workspace's usage is their bytes, and the
 * publications requested before name their images in {@code media_use}, at the time of their request.
 */
class MediaLifecycleMigrationTest {

    private static final String A = "med_" + "a".repeat(64);
    private static final String B = "med_" + "b".repeat(64);

    @Test
    void storedImagesCountTowardsTheQuotaAndStoredRequestsNameTheirImages() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        // the schema before the media lifecycle
        flyway(database, "2026.12.01.83").migrate();
        try (Connection c = database.connect()) {
            media(c, "acme", A, 1_000);
            media(c, "acme", B, 300);
            media(c, "other", A, 1_000);
            append(c, "pub_a", "{\"workspaceId\":\"acme\",\"content\":{\"body\":\"x\",\"media\":[{\"mediaId\":\"" + A
                    + "\",\"altText\":null},{\"mediaId\":\"" + B + "\",\"altText\":\"b\"}]}}");
            // revision 1 of the request had no images at all
            append(c, "pub_b", "{\"workspaceId\":\"acme\",\"content\":{\"body\":\"y\"}}");
            append(c, "pub_c", "{\"workspaceId\":\"other\",\"content\":{\"body\":\"z\",\"media\":[]}}");
        }

        flyway(database, "latest").migrate();

        List<String> usage = new ArrayList<>();
        List<String> uses = new ArrayList<>();
        try (Connection c = database.connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT workspace_id, stored_bytes FROM media_usage ORDER BY 1")) {
                while (rs.next()) {
                    usage.add(rs.getString(1) + " " + rs.getLong(2));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT workspace_id, media_id, publication_id, used_at"
                    + " = '2030-01-01T10:00:00Z'::timestamptz FROM media_use ORDER BY 2")) {
                while (rs.next()) {
                    uses.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getBoolean(4));
                }
            }
        }
        assertThat(usage).containsExactly("acme 1300", "other 1000");
        assertThat(uses).containsExactly("acme " + A + " pub_a true", "acme " + B + " pub_a true");
    }

    private static Flyway flyway(TestDatabase database, String target) {
        return Flyway.configure().dataSource(database.jdbcUrl(), null, null).locations("classpath:db/migration")
                .target(target).load();
    }

    private static void media(Connection c, String ws, String id, int bytes) throws Exception {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO media (workspace_id, media_id, content_type,"
                + " byte_count, width, height, content, created_at) VALUES (?, ?, 'image/png', ?, 1, 1, ?, now())")) {
            s.setString(1, ws);
            s.setString(2, id);
            s.setLong(3, bytes);
            s.setBytes(4, new byte[bytes]);
            s.executeUpdate();
        }
    }

    private static void append(Connection c, String id, String payload) throws Exception {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO domain_event_entry (aggregate_identifier,"
                + " sequence_number, type, event_identifier, payload, payload_revision, payload_type, time_stamp)"
                + " VALUES (?, 0, 'Publication', ?, ?, '2', 'io.herald.contracts.publication.PublicationRequestedEvent',"
                + " '2030-01-01T10:00:00Z')")) {
            s.setString(1, id);
            s.setString(2, id + "-0");
            s.setBytes(3, payload.getBytes(StandardCharsets.UTF_8));
            s.executeUpdate();
        }
    }
}
