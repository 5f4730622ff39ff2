package io.herald.deploy.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.deploy.HeraldApplication;
import io.herald.query.audit.AuditChainRepository;
import io.herald.query.audit.AuditKeys;
import io.herald.query.audit.ExportVerifier;
import io.herald.testsupport.TestDatabase;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A store that today's code wrote before the audit chain existed (a fixture of stored rows) gets
 * its chain computed once, in the background, by the chain's processor when Herald starts on it;
 * the progress endpoint shows it done, and the store's export then verifies.
 */
class AuditChainMigrationIT {

    private static final String SYSTEM_KEY = "hs.chain-migration-key-0123456789abcdefghijklmnopqrstuvwxyz";

    @Test
    void aStoreWrittenBeforeTheChainIsChainedInTheBackgroundAndItsExportVerifies() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        // the schema before the chain
        Flyway.configure().dataSource(database.jdbcUrl(), null, null).locations("classpath:db/migration")
                .target("2026.12.04.72").load().migrate();
        int stored = storeFixture(database);

        try (ConfigurableApplicationContext herald = new SpringApplicationBuilder(HeraldApplication.class).run(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--herald.data-dir=" + Files.createTempDirectory("herald-chain-migration"),
                "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                "--herald.security.system-key=" + SYSTEM_KEY,
                "--server.port=0",
                "--herald.test.sandbox-loopback=false")) {
            int port = ((WebServerApplicationContext) herald).getWebServer().getPort();
            ObjectMapper json = new ObjectMapper();
            JsonNode progress = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline) {
                progress = json.readTree(get(port, "/api/v1/admin/audit/chain", SYSTEM_KEY));
                if (progress.get("caughtUp").asBoolean()) {
                    break;
                }
                Thread.sleep(200);
            }
            assertThat(progress.get("caughtUp").asBoolean()).as(String.valueOf(progress)).isTrue();
            assertThat(progress.get("eventsChained").asLong()).isGreaterThanOrEqualTo(stored);

            AuditKeys keys = herald.getBean(AuditKeys.class);
            herald.getBean(AuditChainRepository.class).checkpoint(keys.signer().orElseThrow(), Instant.now());
            String export = get(port, "/api/v1/audit/events", SYSTEM_KEY);
            ExportVerifier.Result result = new ExportVerifier(
                    Map.of(keys.signer().orElseThrow().keyId(), keys.signer().orElseThrow().publicKey()), false)
                    .verify(new BufferedReader(new StringReader(export)));
            assertThat(result.verified()).as(result.problem()).isTrue();
            assertThat(result.events()).isEqualTo(progress.get("eventsChained").asLong());
            assertThat(result.notes()).isEmpty();
        }
    }

    /** The fixture's rows, as today's code stored them; how many. */
    private static int storeFixture(TestDatabase database) throws Exception {
        JsonNode rows;
        try (InputStream in = AuditChainMigrationIT.class.getResourceAsStream("/audit/store-before-chain.json")) {
            rows = new ObjectMapper().readTree(in);
        }
        try (Connection c = database.connect(); PreparedStatement s = c.prepareStatement("INSERT INTO domain_event_entry"
                + " (aggregate_identifier, sequence_number, type, event_identifier, payload, meta_data, payload_revision,"
                + " payload_type, time_stamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (JsonNode row : rows) {
                s.setString(1, row.get("aggregateIdentifier").asText());
                s.setLong(2, row.get("sequenceNumber").asLong());
                s.setString(3, row.get("type").asText());
                s.setString(4, row.get("eventIdentifier").asText());
                s.setBytes(5, row.get("payload").asText().getBytes(StandardCharsets.UTF_8));
                s.setBytes(6, row.get("metaData").asText().getBytes(StandardCharsets.UTF_8));
                s.setString(7, row.get("payloadRevision").asText());
                s.setString(8, row.get("payloadType").asText());
                s.setString(9, row.get("timeStamp").asText());
                s.executeUpdate();
            }
            try (Statement count = c.createStatement();
                 ResultSet rs = count.executeQuery("SELECT count(*) FROM domain_event_entry")) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static String get(int port, String path, String key) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + path)).header("Authorization", "Bearer " + key).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + " " + response.body()).isEqualTo(200);
        return response.body();
    }
}
