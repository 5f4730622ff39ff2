package io.herald.query.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JdbcColumnsTest {

    /** As the application's mapper reads what clients send: a field named twice is refused. */
    private final ObjectMapper application = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();

    record Attempt(int number, Instant at) {
    }

    @Test
    void readsBackWhatItWrote() {
        JdbcColumns columns = new JdbcColumns(application);
        List<Attempt> attempts = List.of(new Attempt(1, Instant.parse("2026-12-07T01:45:50.123Z")));

        String stored = columns.toJson(attempts);

        assertThat(stored).contains("\"2026-12-07T01:45:50.123Z\"");
        assertThat(columns.fromJson(stored, Attempt[].class)).containsExactlyElementsOf(attempts);
    }

    @Test
    void readsItsOwnColumnsWithoutTheApplicationsCheckForFieldsNamedTwice() {
        String twice = "{\"number\":1,\"number\":2}";
        assertThatThrownBy(() -> application.readValue(twice, Map.class)).hasMessageContaining("Duplicate field");

        assertThat(new JdbcColumns(application).fromJson(twice, Attempt.class).number()).isEqualTo(2);
        assertThatThrownBy(() -> application.readValue(twice, Map.class))
                .as("the application's mapper keeps its check").hasMessageContaining("Duplicate field");
    }
}
