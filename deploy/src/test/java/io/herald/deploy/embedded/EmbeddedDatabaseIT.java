package io.herald.deploy.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded database on a real PostgreSQL (zonky's binaries): only 127.0.0.1, only its
 * password, and data folders of earlier versions (trust logins, no password file) are secured
 * on their next start without losing anything.
 */
class EmbeddedDatabaseIT {

    @TempDir
    Path dataFolder;

    @Test
    void aNewDataFolderGetsAPasswordOnlyServerOnLoopbackThatKeepsItsPasswordAcrossRestarts() throws Exception {
        String password;
        try (EmbeddedDatabase database = EmbeddedDatabase.start(dataFolder, 0)) {
            Path passwordFile = dataFolder.resolve(EmbeddedDatabase.PASSWORD_FILE);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(passwordFile))).isEqualTo("rw-------");
            password = Files.readString(passwordFile).trim();
            assertThat(password).isEqualTo(database.password()).matches("[0-9a-f]{64}");

            try (Connection c = connect(database, password)) {
                assertThat(show(c, "listen_addresses")).isEqualTo("127.0.0.1");
                assertThat(show(c, "unix_socket_directories")).isEmpty();
            }
            assertRefused(database, null);
            assertRefused(database, "wrong-" + password);
            assertThat(Files.readAllLines(dataFolder.resolve("postgres").resolve(EmbeddedDatabase.HBA_FILE)))
                    .first().isEqualTo(EmbeddedDatabase.HBA_MARKER);
        }

        try (EmbeddedDatabase again = EmbeddedDatabase.start(dataFolder, 0)) {
            assertThat(again.password()).isEqualTo(password);
            try (Connection c = connect(again, password)) {
                assertThat(show(c, "listen_addresses")).isEqualTo("127.0.0.1");
            }
            assertRefused(again, null);
        }
    }

    @Test
    void aDataFolderOfAnEarlierVersionIsSecuredOnItsNextStartAndKeepsItsData() throws Exception {
        // what earlier versions left: zonky's defaults, every local login trusted, no password file
        Path pgData = dataFolder.resolve("postgres");
        try (EmbeddedPostgres legacy = EmbeddedPostgres.builder().setDataDirectory(pgData)
                .setCleanDataDirectory(false).start();
             Connection c = legacy.getPostgresDatabase().getConnection();
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE kept (what text)");
            s.execute("INSERT INTO kept VALUES ('from before')");
        }
        assertThat(dataFolder.resolve(EmbeddedDatabase.PASSWORD_FILE)).doesNotExist();

        try (EmbeddedDatabase database = EmbeddedDatabase.start(dataFolder, 0)) {
            assertThat(dataFolder.resolve(EmbeddedDatabase.PASSWORD_FILE)).exists();
            try (Connection c = connect(database, database.password());
                 Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT what FROM kept")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("from before");
                assertThat(show(c, "listen_addresses")).isEqualTo("127.0.0.1");
            }
            assertRefused(database, null);
        }
    }

    @Test
    void aLostPasswordFileGetsANewPasswordAndTheOldOneStopsWorking() throws Exception {
        String first;
        try (EmbeddedDatabase database = EmbeddedDatabase.start(dataFolder, 0)) {
            first = database.password();
        }
        Files.delete(dataFolder.resolve(EmbeddedDatabase.PASSWORD_FILE));

        try (EmbeddedDatabase database = EmbeddedDatabase.start(dataFolder, 0)) {
            assertThat(database.password()).isNotEqualTo(first);
            try (Connection c = connect(database, database.password())) {
                assertThat(show(c, "listen_addresses")).isEqualTo("127.0.0.1");
            }
            assertRefused(database, first);
            assertRefused(database, null);
            assertThat(Files.readAllLines(dataFolder.resolve("postgres").resolve(EmbeddedDatabase.HBA_FILE)))
                    .first().isEqualTo(EmbeddedDatabase.HBA_MARKER);
        }
    }

    private static void assertRefused(EmbeddedDatabase database, String password) {
        assertThatThrownBy(() -> connect(database, password).close())
                .isInstanceOf(SQLException.class)
                // 28P01 wrong password; 08004 the server asked for a password and none was given
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isIn("28P01", "08004"));
    }

    private static Connection connect(EmbeddedDatabase database, String password) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", EmbeddedDatabase.USER);
        if (password != null) {
            properties.setProperty("password", password);
        }
        return DriverManager.getConnection(database.jdbcUrl("postgres"), properties);
    }

    private static String show(Connection c, String setting) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
