package io.herald.deploy.embedded;

import io.herald.platform.data.DataDirectory;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HexFormat;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded PostgreSQL of a data folder, locked down: it listens on 127.0.0.1 only (no other
 * interface, no Unix socket) and takes only password logins of its one user, {@code postgres},
 * with a random password kept in {@code <data-dir>/postgres.password} (mode 0600).
 *
 * <p>initdb trusts every local login, and so did data folders of earlier Herald versions. Such
 * a folder is secured on its start: the server runs once as it is, gets its password, and is
 * started again with {@code pg_hba.conf} replaced by password-only rules. A lost password file
 * is handled the same way (who can delete that file can edit {@code pg_hba.conf} anyway).
 */
public final class EmbeddedDatabase implements Closeable {

    public static final String USER = "postgres";
    static final String PASSWORD_FILE = "postgres.password";
    static final String HBA_FILE = "pg_hba.conf";
    static final String LOOPBACK = "127.0.0.1";
    /** First line of Herald's pg_hba.conf: how a secured data folder is recognised. */
    static final String HBA_MARKER = "# Herald: password logins over 127.0.0.1 only";
    private static final String PASSWORD_ONLY_HBA = HBA_MARKER + """

            # written by Herald; the password is in ../%s
            # TYPE  DATABASE  USER  ADDRESS       METHOD
            local   all       all                 scram-sha-256
            host    all       all   127.0.0.1/32  scram-sha-256
            """.formatted(PASSWORD_FILE);
    /** Only while a folder whose password was lost gets its new one, and only for the one user over 127.0.0.1. */
    private static final String SETUP_HBA = """
            # Herald: setting the password of the embedded database; replaced once it is set
            host    all       %s    127.0.0.1/32  trust
            """.formatted(USER);
    private static final Logger log = LoggerFactory.getLogger(EmbeddedDatabase.class);

    private final EmbeddedPostgres server;
    private final String password;

    private EmbeddedDatabase(EmbeddedPostgres server, String password) {
        this.server = server;
        this.password = password;
    }

    /** Starts the database of {@code dataFolder}/postgres, creating or securing it first where needed. */
    public static EmbeddedDatabase start(Path dataFolder, int port) throws IOException {
        DataDirectory.create(dataFolder);
        Path pgData = dataFolder.resolve("postgres");
        Path passwordFile = dataFolder.resolve(PASSWORD_FILE);
        Path hba = pgData.resolve(HBA_FILE);
        boolean passwordOnly = passwordOnly(hba);
        String password;
        if (Files.exists(passwordFile)) {
            DataDirectory.restrictExisting(passwordFile);
            password = Files.readString(passwordFile, StandardCharsets.UTF_8).trim();
        } else {
            password = newPassword();
            // written before the server learns it: a start that fails halfway repeats with the same password
            DataDirectory.writeSecret(passwordFile, password + System.lineSeparator());
            if (passwordOnly) {
                log.warn("{} is missing; the embedded database gets a new password", passwordFile);
                Files.writeString(hba, SETUP_HBA, StandardCharsets.UTF_8);
                passwordOnly = false;
            }
        }
        if (!passwordOnly) {
            try (EmbeddedPostgres open = builder(pgData, port, password).start()) {
                setPassword(open, password);
            }
            Files.writeString(hba, PASSWORD_ONLY_HBA, StandardCharsets.UTF_8);
            log.info("the embedded database now takes only password logins; its password is in {}", passwordFile);
        }
        try {
            return new EmbeddedDatabase(builder(pgData, port, password).start(), password);
        } catch (IOException e) {
            throw new IOException("the embedded database in " + pgData + " did not accept the password in "
                    + passwordFile + " (or did not start): " + e.getMessage(), e);
        }
    }

    public String jdbcUrl(String database) {
        // the address, not "localhost": the server listens on this one only
        return "jdbc:postgresql://" + LOOPBACK + ":" + server.getPort() + "/" + database;
    }

    public String password() {
        return password;
    }

    public int port() {
        return server.getPort();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }

    private static EmbeddedPostgres.Builder builder(Path pgData, int port, String password) {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(pgData)
                .setCleanDataDirectory(false)
                // stopped by the Spring context, after everything that uses it: its own JVM hook
                // would stop it while a graceful shutdown still records attempts' answers
                .setRegisterShutdownHook(false)
                // PostgreSQL's default is "localhost", which is ::1 too; and no Unix socket in /tmp
                .setServerConfig("listen_addresses", LOOPBACK)
                .setServerConfig("unix_socket_directories", "")
                .setServerConfig("password_encryption", "scram-sha-256")
                // zonky's own readiness check logs in with these
                .setConnectConfig("password", password);
        if (port > 0) {
            builder.setPort(port);
        }
        return builder;
    }

    private static boolean passwordOnly(Path hba) throws IOException {
        if (!Files.exists(hba)) {
            return false;
        }
        try (var lines = Files.lines(hba, StandardCharsets.UTF_8)) {
            return lines.findFirst().map(HBA_MARKER::equals).orElse(false);
        }
    }

    private static void setPassword(EmbeddedPostgres server, String password) throws IOException {
        try (Connection connection = server.getPostgresDatabase().getConnection()) {
            // hashed by the driver: the password itself never reaches the server or its log
            connection.unwrap(PGConnection.class).alterUserPassword(USER, password.toCharArray(), "scram-sha-256");
        } catch (SQLException e) {
            throw new IOException("could not set the embedded database's password: " + e.getMessage(), e);
        }
    }

    private static String newPassword() {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
