package io.herald.deploy.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.deploy.HeraldApplication;
import io.herald.query.audit.AuditChainRepository;
import io.herald.query.audit.AuditKeys;
import io.herald.query.audit.ChainWatch;
import io.herald.deploy.cli.AuditCommandLine;
import io.herald.query.audit.ExportVerifier;
import io.herald.testsupport.TestDatabase;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A store that today's code wrote before the audit chain existed (a fixture of stored rows, in
 * three workspaces) gets its chain computed once, in the background, by the chain's processor when
 * Herald starts on it; the progress endpoint shows it growing until it has caught up, the live
 * chain check finds the chain holds, and the store's export verifies with {@code audit
 * verify-export} and the published keys.
 */
class AuditChainMigrationIT {

    /** Copies of the fixture's history in the store: enough for the chain to take a while. */
    private static final int COPIES = 200;

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
            List<JsonNode> samples = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (System.nanoTime() < deadline) {
                JsonNode progress = json.readTree(get(port, "/api/v1/admin/audit/chain", SYSTEM_KEY));
                samples.add(progress);
                if (progress.get("caughtUp").asBoolean()) {
                    break;
                }
                Thread.sleep(50);
            }
            JsonNode done = samples.get(samples.size() - 1);
            assertThat(done.get("caughtUp").asBoolean()).as(String.valueOf(done)).isTrue();
            assertThat(done.get("eventsChained").asLong()).isEqualTo(stored);
            assertThat(done.get("chainedThrough").asLong()).isEqualTo(done.get("storeHead").asLong());
            // the progress only ever grows, and never claims more than the store holds
            for (int i = 1; i < samples.size(); i++) {
                assertThat(samples.get(i).get("eventsChained").asLong())
                        .isGreaterThanOrEqualTo(samples.get(i - 1).get("eventsChained").asLong())
                        .isLessThanOrEqualTo(stored);
            }
            System.out.printf("audit chain of %d stored events: %d progress answers until caught up, the first %s%n",
                    stored, samples.size(), samples.get(0));

            AuditKeys keys = herald.getBean(AuditKeys.class);
            herald.getBean(AuditChainRepository.class).checkpoint(keys.signer().orElseThrow(), Instant.now());
            assertThat(herald.getBean(ChainWatch.class).check()).as("the chain as computed holds").isEmpty();
            String export = get(port, "/api/v1/audit/events", SYSTEM_KEY);
            ExportVerifier.Result result = new ExportVerifier(
                    Map.of(keys.signer().orElseThrow().keyId(), keys.signer().orElseThrow().publicKey()), false)
                    .verify(new BufferedReader(new StringReader(export)));
            assertThat(result.verified()).as(result.problem()).isTrue();
            assertThat(result.events()).isEqualTo(stored);
            assertThat(result.notes()).isEmpty();

            // and as an auditor checks it: the command line, the export and the published keys as files
            Path files = Files.createTempDirectory("herald-chain-export");
            Path exportFile = Files.writeString(files.resolve("store.ndjson"), export);
            Path keyFile = Files.writeString(files.resolve("keys.json"), get(port, "/api/v1/audit/keys", SYSTEM_KEY));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int exit = AuditCommandLine.run(new String[] {"audit", "verify-export", exportFile.toString(),
                    "--public-key", keyFile.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
            assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isZero();
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("verified: " + stored + " events, 3 checkpoints");
        }
    }

    /**
     * The fixture's rows as today's code stored them (a channel connected and a publication
     * published), written {@link #COPIES} times over three workspaces, each copy with its own
     * channel, publication and event ids; how many rows the store then holds.
     */
    private static int storeFixture(TestDatabase database) throws Exception {
        JsonNode rows;
        try (InputStream in = AuditChainMigrationIT.class.getResourceAsStream("/audit/store-before-chain.json")) {
            rows = new ObjectMapper().readTree(in);
        }
        String workspace = rows.get(0).get("payload").asText().replaceAll("(?s).*\"workspaceId\":\"([^\"]+)\".*", "$1");
        String publication = rows.get(rows.size() - 1).get("aggregateIdentifier").asText();
        try (Connection c = database.connect(); PreparedStatement s = c.prepareStatement("INSERT INTO domain_event_entry"
                + " (aggregate_identifier, sequence_number, type, event_identifier, payload, meta_data, payload_revision,"
                + " payload_type, time_stamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int copy = 0; copy < COPIES; copy++) {
                String ws = "fixture-" + (copy % 3);
                String channel = "fb-" + copy;
                String publicationId = "pub_" + sha256(publication + copy);
                for (JsonNode row : rows) {
                    java.util.function.UnaryOperator<String> own = text -> text.replace(workspace, ws)
                            .replace("fb-main", channel).replace(publication, publicationId);
                    s.setString(1, own.apply(row.get("aggregateIdentifier").asText()));
                    s.setLong(2, row.get("sequenceNumber").asLong());
                    s.setString(3, row.get("type").asText());
                    s.setString(4, UUID.nameUUIDFromBytes((row.get("eventIdentifier").asText() + copy)
                            .getBytes(StandardCharsets.UTF_8)).toString());
                    s.setBytes(5, own.apply(row.get("payload").asText()).getBytes(StandardCharsets.UTF_8));
                    s.setBytes(6, row.get("metaData").asText().getBytes(StandardCharsets.UTF_8));
                    s.setString(7, row.get("payloadRevision").asText());
                    s.setString(8, row.get("payloadType").asText());
                    s.setString(9, row.get("timeStamp").asText());
                    s.addBatch();
                }
                s.executeBatch();
            }
            try (Statement count = c.createStatement();
                 ResultSet rs = count.executeQuery("SELECT count(*) FROM domain_event_entry")) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static String sha256(String text) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static String get(int port, String path, String key) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + path)).header("Authorization", "Bearer " + key).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + " " + response.body()).isEqualTo(200);
        return response.body();
    }
}
