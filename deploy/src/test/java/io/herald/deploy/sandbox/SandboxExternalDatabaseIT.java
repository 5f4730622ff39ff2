package io.herald.deploy.sandbox;

import io.herald.sandbox.SandboxOnExternalDatabaseException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.deploy.HeraldApplication;
import io.herald.testsupport.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The sandbox registers a demo workspace, its key and demo channel connections in the database it
 * is given: against an external database it starts only when told that is meant.
 */
class SandboxExternalDatabaseIT {

    @TempDir
    Path dataDir;

    @Test
    void theSandboxRefusesAnExternalDatabaseBeforeTouchingIt() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();

        assertThatThrownBy(() -> start(database, false).close())
                .isInstanceOf(SandboxOnExternalDatabaseException.class)
                .hasMessageContaining("spring.datasource.url")
                .hasMessageContaining("herald.sandbox.allow-external-database=true");
        assertThat(tables(database)).as("nothing was created in the refused database").isZero();
    }

    @Test
    void theSandboxStartsOnAnExternalDatabaseWhenThatIsAllowed() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();

        try (ConfigurableApplicationContext context = start(database, true)) {
            assertThat(context.isActive()).isTrue();
            assertThat(tables(database)).isPositive();
        }
    }

    private ConfigurableApplicationContext start(TestDatabase database, boolean allowed) {
        return new SpringApplicationBuilder(HeraldApplication.class).run(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--herald.data-dir=" + dataDir,
                "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                "--herald.security.system-key=hs.test-system-key-0123456789abcdefghijklmnopqrstuvwxyz",
                "--server.port=0",
                "--herald.test.sandbox-loopback=false",
                "--herald.sandbox.enabled=true",
                // the test configuration allows it for every other test; here it is the point
                "--herald.sandbox.allow-external-database=" + allowed);
    }

    private static long tables(TestDatabase database) throws Exception {
        try (Connection c = database.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
