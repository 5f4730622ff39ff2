package io.herald.deploy.axon;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;
import io.herald.adapters.port.ChannelPlugins;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Stored instants read digit by digit, and everything else exactly as Jackson's own deserializer reads it. */
class StoredInstantDeserializerTest {

    private final ObjectMapper stored = new AxonPersistenceConfiguration()
            .defaultAxonObjectMapper(new ChannelPlugins(List.of()));
    private final ObjectMapper jackson = JsonMapper.builder().addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();

    @Test
    void theStoredMapperReadsInstantsWithIt() {
        assertThat(stored.getRegisteredModuleIds()).contains("herald-stored-instants");
    }

    @Test
    void readsEveryWrittenInstantAsJacksonDoes() throws Exception {
        Random random = new Random(20261201);
        long min = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
        long max = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        for (int i = 0; i < 200_000; i++) {
            long seconds = min + (long) (random.nextDouble() * (max - min));
            int nanos = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant instant = Instant.ofEpochSecond(seconds, nanos);
            String json = stored.writeValueAsString(instant);
            String text = json.substring(1, json.length() - 1);
            assertThat(StoredInstantDeserializer.utc(text)).as(text).isEqualTo(instant);
            assertThat(stored.readValue(json, Instant.class)).as(text).isEqualTo(instant);
        }
    }

    @Test
    void readsAFractionOfAnyLengthAsJavaDoes() {
        for (String text : List.of("2026-12-01T17:03:00.1Z", "2026-12-01T17:03:00.12Z", "2026-12-01T17:03:00.1234Z",
                "2026-12-01T17:03:00.12345678Z", "2026-12-01T17:03:00.000000001Z", "2024-02-29T23:59:59.999999999Z",
                "1970-01-01T00:00:00Z", "0000-01-01T00:00:00Z")) {
            assertThat(StoredInstantDeserializer.utc(text)).as(text).isEqualTo(Instant.parse(text));
        }
    }

    /** Other forms, and fields out of range (some of which Jackson reads, a leap second say, and some not). */
    @Test
    void leavesEveryOtherFormToJackson() throws Exception {
        for (String json : List.of("\"2026-12-01T18:03:00+01:00\"", "\"+10000-01-01T00:00:00Z\"", "1764608580.5",
                "1764608580123", "\"2026-12-01T17:03:00.1234567890Z\"", "\"2026-12-01T17:03Z\"",
                "\"2026-02-30T00:00:00Z\"", "\"2026-13-01T00:00:00Z\"", "\"2026-12-01T24:00:00Z\"",
                "\"2026-12-01T17:60:00Z\"", "\"2026-12-31T23:59:60Z\"", "\"2026-12-01T17:03:00.Z\"",
                "\"2026-12-01T17:03:0xZ\"", "\"not an instant at all\"")) {
            String text = json.replace("\"", "");
            assertThat(StoredInstantDeserializer.utc(text)).as(text).isNull();
            Object expected;
            try {
                expected = jackson.readValue(json, Instant.class);
            } catch (Exception refused) {
                expected = refused.getClass();
            }
            Object actual;
            try {
                actual = stored.readValue(json, Instant.class);
            } catch (Exception refused) {
                actual = refused.getClass();
            }
            assertThat(actual).as(json).isEqualTo(expected);
        }
    }
}
