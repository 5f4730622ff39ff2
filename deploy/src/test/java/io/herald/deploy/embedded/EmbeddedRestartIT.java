package io.herald.deploy.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.deploy.HeraldApplication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The default run: no database configured, so Herald brings an embedded PostgreSQL whose data
 * lives in its data folder, on 127.0.0.1 only and behind its password. Stopped and started again,
 * it still has everything.
 */
class EmbeddedRestartIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    @TempDir
    Path dataDir;

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(HeraldApplication.class).run(
                "--herald.data-dir=" + dataDir,
                "--server.port=0",
                "--herald.test.sandbox-loopback=false",
                "--herald.sandbox.enabled=true");
    }

    @Test
    void publicationsSurviveARestartOfTheEmbeddedRun() throws Exception {
        String id;
        String key;
        try (ConfigurableApplicationContext first = start()) {
            String base = base(first);
            key = Files.readString(dataDir.resolve("demo.key")).trim();
            HttpResponse<String> created = call("POST", base + "/api/v1/workspaces/demo/publications", key, """
                    {"calendarEntryId":"restart-1","contentVersion":1,"channelId":"fb-demo","action":"publish",
                     "content":{"body":"Survives a restart"}}""");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
            id = json.readTree(created.body()).get("publicationId").asText();
            await(base, key, id, "SUCCEEDED");
            assertLockedDown(first);
        }
        assertThat(dataDir.resolve("postgres")).isDirectory();
        // as earlier versions left them: the demo key with the default mode
        Files.setPosixFilePermissions(dataDir.resolve("demo.key"), PosixFilePermissions.fromString("rw-r--r--"));

        try (ConfigurableApplicationContext second = start()) {
            JsonNode view = await(base(second), key, id, "SUCCEEDED");
            assertThat(view.get("attempts")).hasSize(1);
            assertThat(view.get("calendarEntryId").asText()).isEqualTo("restart-1");
            assertLockedDown(second);
        }
    }

    /** The secrets in the data folder are the owner's alone; the database is on 127.0.0.1 and wants its password. */
    private void assertLockedDown(ConfigurableApplicationContext context) throws Exception {
        for (String secret : List.of("postgres.password", "demo.key", "encryption.key", "system-key.sha256")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir.resolve(secret))))
                    .as(secret).isEqualTo("rw-------");
        }
        JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
        assertThat(jdbc.queryForObject("SHOW listen_addresses", String.class)).isEqualTo("127.0.0.1");
        EmbeddedDatabase database = context.getBean(EmbeddedDatabase.class);
        assertThatThrownBy(() -> DriverManager.getConnection(database.jdbcUrl("postgres") + "?user=postgres").close())
                .isInstanceOf(SQLException.class);
    }

    private static String base(ConfigurableApplicationContext context) {
        return "http://localhost:" + ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    private JsonNode await(String base, String key, String id, String status) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String last = null;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = call("GET", base + "/api/v1/workspaces/demo/publications/" + id, key, null);
            last = r.statusCode() + " " + r.body();
            if (r.statusCode() == 200 && json.readTree(r.body()).get("status").asText().equals(status)) {
                return json.readTree(r.body());
            }
            Thread.sleep(100);
        }
        throw new AssertionError("publication never reached " + status + ": " + last);
    }

    private static HttpResponse<String> call(String method, String url, String key, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
