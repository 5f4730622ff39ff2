package io.herald.deploy.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.junit.jupiter.api.Test;

/**
 * A store migrated before four migrations' comments were reworded still starts: the released
 * checksums are recognised and replaced, and nothing else is.
 */
class RewordedMigrationsTest {

    @Test
    void aStoreMigratedWithTheReleasedFilesValidatesAfterTheRewording() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        configuration(database).load().migrate();
        // the history as the release before the rewording wrote it
        try (Connection c = database.connect();
             PreparedStatement s = c.prepareStatement("UPDATE flyway_schema_history SET checksum = ? WHERE version = ?")) {
            for (RewordedMigrations.Reworded migration : RewordedMigrations.REWORDED) {
                s.setInt(1, migration.released());
                s.setString(2, migration.version());
                assertThat(s.executeUpdate()).as(migration.version()).isEqualTo(1);
            }
        }
        assertThatThrownBy(() -> configuration(database).load().validate())
                .as("without the callback the released checksums do not match the files")
                .isInstanceOf(FlywayValidateException.class);

        configuration(database).callbacks(new RewordedMigrations()).load().migrate();

        assertThat(checksums(database)).containsExactlyElementsOf(
                RewordedMigrations.REWORDED.stream().map(m -> m.version() + " " + m.reworded()).toList());
        configuration(database).load().validate();
    }

    @Test
    void aChecksumOtherThanTheReleasedOneIsLeftForFlywayToReport() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        configuration(database).load().migrate();
        try (Connection c = database.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE flyway_schema_history SET checksum = 12345 WHERE version = '2026.12.01.47'");
        }

        assertThatThrownBy(() -> configuration(database).callbacks(new RewordedMigrations()).load().validate())
                .isInstanceOf(FlywayValidateException.class)
                .hasMessageContaining("2026.12.01.47");
    }

    @Test
    void aNewStoreIsMigratedWithTheCallbackInPlace() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        configuration(database).callbacks(new RewordedMigrations()).load().migrate();
        assertThat(checksums(database)).containsExactlyElementsOf(
                RewordedMigrations.REWORDED.stream().map(m -> m.version() + " " + m.reworded()).toList());
    }

    private static FluentConfiguration configuration(TestDatabase database) {
        return Flyway.configure().dataSource(database.jdbcUrl(), null, null).locations("classpath:db/migration");
    }

    private static List<String> checksums(TestDatabase database) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = database.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT version, checksum FROM flyway_schema_history WHERE version IN"
                     + " ('2026.12.01.47', '2026.12.01.60', '2026.12.01.74', '2026.12.01.75') ORDER BY version")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getInt(2));
            }
        }
        return rows;
    }
}
