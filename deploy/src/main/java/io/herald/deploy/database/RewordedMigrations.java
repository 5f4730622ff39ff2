package io.herald.deploy.database;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Migrations whose leading comment was reworded after they were released (they cited guides that
 * are not part of the repository; they now cite {@code docs/}). Their SQL is unchanged, but Flyway
 * checksums the whole file, so a store migrated by an earlier release would refuse to start. Before
 * Flyway validates, a history row that still carries exactly the released checksum of one of these
 * files gets the reworded file's checksum; any other checksum is left for Flyway to report.
 */
@Component
class RewordedMigrations implements Callback {

    private static final Logger LOG = LoggerFactory.getLogger(RewordedMigrations.class);

    /** The version, the checksum it was released with, and the reworded file's. */
    record Reworded(String version, int released, int reworded) {
    }

    static final List<Reworded> REWORDED = List.of(
            new Reworded("2026.12.01.47", -713059301, 2044401778),
            new Reworded("2026.12.01.60", 1255997465, 282293415),
            new Reworded("2026.12.01.74", 2068798602, -915355337),
            new Reworded("2026.12.01.75", 126113117, -770000657));

    @Override
    public boolean supports(Event event, Context context) {
        return event == Event.BEFORE_VALIDATE || event == Event.BEFORE_MIGRATE;
    }

    @Override
    public boolean canHandleInTransaction(Event event, Context context) {
        return true;
    }

    @Override
    public void handle(Event event, Context context) {
        String table = context.getConfiguration().getTable();
        try {
            if (!historyExists(context, table)) {
                return;
            }
            try (PreparedStatement update = context.getConnection().prepareStatement("UPDATE \"" + table.replace("\"", "")
                    + "\" SET checksum = ? WHERE version = ? AND checksum = ?")) {
                for (Reworded migration : REWORDED) {
                    update.setInt(1, migration.reworded());
                    update.setString(2, migration.version());
                    update.setInt(3, migration.released());
                    if (update.executeUpdate() > 0) {
                        LOG.info("Migration {} was reworded after its release (comment only): its recorded checksum"
                                + " is updated", migration.version());
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not update the checksums of reworded migrations", e);
        }
    }

    private static boolean historyExists(Context context, String table) throws SQLException {
        try (PreparedStatement query = context.getConnection().prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            query.setString(1, "\"" + table.replace("\"", "") + "\"");
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    @Override
    public String getCallbackName() {
        return "herald-reworded-migrations";
    }
}
