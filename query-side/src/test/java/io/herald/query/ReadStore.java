package io.herald.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.herald.testsupport.TestDatabase;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.http.converter.json.Jackson2ObjectMapperBuilder;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * This test run's read tables on a real PostgreSQL, migrated with the module's own Flyway scripts
 * exactly as the application runs them.
 */
public final class ReadStore {

    private static ReadStore shared;

    private final NamedParameterJdbcTemplate jdbc;
    private final ObjectMapper objectMapper;

    private ReadStore(DataSource dataSource) {
        Flyway.configure().dataSource(dataSource).locations("classpath:db/migration/query").load().migrate();
        this.jdbc = new NamedParameterJdbcTemplate(dataSource);
        // the defaults of the application's ObjectMapper bean (Spring Boot writes dates as ISO-8601 text)
        this.objectMapper = Jackson2ObjectMapperBuilder.json().modulesToInstall(AuthorSettings.jacksonModule())
                .featuresToDisable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();
    }

    public static synchronized ReadStore shared() {
        if (shared == null) {
            SingleConnectionDataSource dataSource =
                    new SingleConnectionDataSource(TestDatabase.shared().jdbcUrl(), true);
            shared = new ReadStore(dataSource);
        }
        return shared;
    }

    public NamedParameterJdbcTemplate jdbc() {
        return jdbc;
    }

    public ObjectMapper objectMapper() {
        return objectMapper;
    }

    public void clear() {
        jdbc.getJdbcTemplate().update("DELETE FROM publication_view");
        jdbc.getJdbcTemplate().update("DELETE FROM publication_counts");
        jdbc.getJdbcTemplate().update("DELETE FROM channel_connection_view");
    }

    /**
     * What {@code publication_counts} says, its slots summed, and what counting the view's rows
     * says: per workspace, channel and status, the publications and how many need a decision (keys
     * whose count is zero left out). Equal when the counts are right.
     */
    public List<List<Map<String, Object>>> countsAndViewCounted() {
        var sql = jdbc.getJdbcTemplate();
        return List.of(
                sql.queryForList("""
                        SELECT workspace_id, channel_id, status, sum(publications) AS publications,
                               sum(waiting) AS waiting
                        FROM publication_counts GROUP BY workspace_id, channel_id, status
                        HAVING sum(publications) <> 0 OR sum(waiting) <> 0
                        ORDER BY workspace_id, channel_id, status"""),
                sql.queryForList("""
                        SELECT workspace_id, channel_id, status, count(*)::numeric AS publications,
                               count(*) FILTER (WHERE needs_decision)::numeric AS waiting
                        FROM publication_view GROUP BY workspace_id, channel_id, status
                        ORDER BY workspace_id, channel_id, status"""));
    }

    /** Every row of a table, every column as text, in key order: for comparing whole table states. */
    public List<Map<String, Object>> rows(String table, String orderBy) {
        return jdbc.getJdbcTemplate().queryForList(
                "SELECT to_jsonb(t)::text AS row FROM " + table + " t ORDER BY " + orderBy);
    }

    public long count(String table) {
        Long n = jdbc.getJdbcTemplate().queryForObject("SELECT count(*) FROM " + table, Long.class);
        return n == null ? 0 : n;
    }
}
