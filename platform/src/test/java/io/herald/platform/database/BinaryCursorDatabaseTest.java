package io.herald.platform.database;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.testsupport.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A long read through {@link BinaryCursor} on a real database: its rows come in binary on its
 * first run (the driver prepares such a statement on the server, where the session lists it), a
 * page at a time, with every byte as stored.
 */
class BinaryCursorDatabaseTest {

    private static final String READ = "SELECT id, payload FROM stored_rows WHERE id > $1 ORDER BY id";

    private final SingleConnectionDataSource dataSource =
            new SingleConnectionDataSource(TestDatabase.shared().freshSibling().jdbcUrl(), true);
    private final JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    private final TransactionTemplate transaction =
            new TransactionTemplate(new DataSourceTransactionManager(dataSource));

    @BeforeEach
    void rows() {
        jdbc.execute("CREATE TABLE stored_rows (id BIGINT PRIMARY KEY, payload BYTEA NOT NULL)");
        // 250 rows, each with every byte value, so a decoding slip shows
        jdbc.execute("INSERT INTO stored_rows SELECT i,"
                + " decode(string_agg(lpad(to_hex((i + b) % 256), 2, '0'), '' ORDER BY b), 'hex')"
                + " FROM generate_series(1, 250) i, generate_series(0, 255) b GROUP BY i");
    }

    @AfterEach
    void close() {
        dataSource.destroy();
    }

    @Test
    void readsInBinaryOnItsFirstRunWithEveryByteAsStored() {
        List<byte[]> payloads = read(BinaryCursor.template(dataSource, 100));

        assertThat(payloads).hasSize(250);
        for (int i = 1; i <= 250; i++) {
            byte[] payload = payloads.get(i - 1);
            assertThat(payload).hasSize(256);
            for (int b = 0; b < 256; b++) {
                assertThat(payload[b]).isEqualTo((byte) ((i + b) % 256));
            }
        }
        assertThat(preparedOnTheServer()).isOne();
    }

    @Test
    void aPlainTemplateReadsItsFirstRunAsText() {
        JdbcTemplate plain = new JdbcTemplate(dataSource);
        plain.setFetchSize(100);

        assertThat(read(plain)).hasSize(250);
        assertThat(preparedOnTheServer()).isZero();
    }

    /** Reads every row in one transaction, as a rebuild's reader does. */
    private List<byte[]> read(JdbcTemplate template) {
        List<byte[]> payloads = new ArrayList<>();
        transaction.executeWithoutResult(status ->
                template.query(READ.replace("$1", "?"), (RowCallbackHandler) rs -> payloads.add(rs.getBytes(2)), 0));
        return payloads;
    }

    /** The session's statements prepared on the server that read the rows. */
    private Integer preparedOnTheServer() {
        return jdbc.queryForObject("SELECT count(*) FROM pg_prepared_statements WHERE statement = ?",
                Integer.class, READ);
    }
}
