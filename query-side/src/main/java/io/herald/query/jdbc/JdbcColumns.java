package io.herald.query.jdbc;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Converts values to and from read-table columns. jsonb is written as text and cast in SQL
 * ({@code CAST(:x AS jsonb)}), so no driver type leaks into the code.
 */
public final class JdbcColumns {

    private final ObjectMapper json;

    /**
     * Works on a copy of the application's mapper: the stored form must not change when someone
     * tunes how the HTTP layer renders dates, and a field added later must not break reading old rows.
     * The columns hold only what this class wrote, so reading them skips the check for a field named
     * twice that the application's mapper makes of what clients send: with it, reading the view's
     * rows back was about a twentieth of what Herald allocated at 250 requests/s.
     */
    public JdbcColumns(ObjectMapper applicationMapper) {
        this.json = applicationMapper.copy()
                .findAndRegisterModules()
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }

    public String toJson(Object value) {
        if (value == null) {
            return null;
        }
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as json", e);
        }
    }

    public <T> T fromJson(String text, TypeReference<T> type) {
        if (text == null) {
            return null;
        }
        try {
            return json.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot read stored json as " + type.getType(), e);
        }
    }

    public <T> T fromJson(String text, Class<T> type) {
        if (text == null) {
            return null;
        }
        try {
            return json.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot read stored json as " + type.getSimpleName(), e);
        }
    }

    /** PostgreSQL's driver binds {@code OffsetDateTime} to timestamptz, not {@code Instant}. */
    public static OffsetDateTime timestamp(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    public static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
